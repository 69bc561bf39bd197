import { runGrantServiceConformance } from '../testing/conformance/grant-service-conformance';
import { InMemoryGrantService } from './in-memory-grant-service';

runGrantServiceConformance({ name: 'InMemoryGrantService', create: () => new InMemoryGrantService() });
