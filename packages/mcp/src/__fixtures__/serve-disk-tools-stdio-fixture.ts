// A Toolsmith process serving the disk tools over stdio (their questions depend on the disk), bundled with
// esbuild by mcp-input-requests.test.ts. Each run is appended, as a JSON line, to the file TOOLSMITH_DISK_RUNS names.
import { appendFileSync } from 'node:fs';
import { serveMcp } from '../serve-mcp';
import { createDiskTools } from './served-tools';

const runs = process.env.TOOLSMITH_DISK_RUNS!;
const tools = createDiskTools(
  (run) => appendFileSync(runs, `${JSON.stringify(run)}\n`),
  (disk) => (disk === 'sda' ? 'nothing' : 'the only copy of payroll'),
);
void serveMcp({ tools: Object.values(tools), transport: 'stdio', name: 'disks-stdio' });
