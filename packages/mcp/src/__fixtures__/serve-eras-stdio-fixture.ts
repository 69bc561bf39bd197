// A Toolsmith process serving the plain test tools over stdio, bundled with esbuild by serve-mcp-eras.test.ts
// (no decorated classes, so it needs no decorator metadata and starts in well under a second).
import { serveMcp } from '../serve-mcp';
import { createServedTestTools } from './served-tools';

void serveMcp({ tools: Object.values(createServedTestTools()), transport: 'stdio', name: 'eras-stdio' });
