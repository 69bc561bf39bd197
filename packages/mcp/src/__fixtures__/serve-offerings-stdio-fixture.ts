// A Toolsmith process serving the conformance resources and prompts over stdio, bundled with esbuild by
// serve-mcp-offerings.test.ts (its class has no constructor parameters, so it needs no decorator metadata).
import { serveMcp } from '../serve-mcp';
import { ConformanceOfferings } from './conformance-offerings';

void serveMcp({ tools: [ConformanceOfferings], transport: 'stdio', name: 'offerings-stdio' });
