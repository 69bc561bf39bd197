import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { main } from '../main';
import { parseMcpArgs } from './mcp-command';

const cliSource = join(__dirname, '..');
// Runs the CLI from its TypeScript sources in a child process (esbuild preload + @toolsmith/* → src).
const registerSource = join(cliSource, '..', '..', 'postgres', 'src', '__fixtures__', 'register-esbuild.js');

function collector() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), text: () => text };
}

describe('toolsmith mcp', () => {
  it('takes exactly one module path', () => {
    expect(parseMcpArgs(['dist/tools.js'])).toEqual({ module: 'dist/tools.js' });
    expect(() => parseMcpArgs([])).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
    expect(() => parseMcpArgs(['a.js', 'b.js'])).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
    expect(() => parseMcpArgs(['--port', '3'])).toThrow(/Unknown option --port/);
  });

  it('reports a module that cannot be served, with its code, and exits 2', async () => {
    const stdout = collector();
    const stderr = collector();
    const code = await main(['mcp', 'no-such-module.js'], { stdout, stderr, cwd: __dirname });
    expect(code).toBe(2);
    expect(stderr.text()).toMatch(/Cannot find module .*no-such-module\.js.*\[MCP_MODULE_NOT_FOUND\]/);
    expect(stdout.text()).toBe('');
  });

  it("serves the module's tools over stdio to an MCP client", async () => {
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', registerSource, join(cliSource, 'bin.ts'), 'mcp', join('src', '__fixtures__', 'mcp-tools.ts')],
        cwd: join(cliSource, '..'),
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['greet']);
      const result = (await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
  });
});
