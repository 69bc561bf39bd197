// A Toolsmith process serving the test tools over stdio (spawned by serve-mcp tests).
import { serveMcp } from '../serve-mcp';
import { createServedTestTools } from './served-tools';

void serveMcp({ tools: Object.values(createServedTestTools()), transport: 'stdio', name: 'served-fixture' });
