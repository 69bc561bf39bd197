import { runSessionStoreConformance } from '../testing/conformance/session-store-conformance';
import { InMemorySessionService } from './in-memory-session-service';

runSessionStoreConformance({ name: 'InMemorySessionService', create: () => new InMemorySessionService() });
