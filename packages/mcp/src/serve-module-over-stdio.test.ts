import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sourceProcessArgs } from './__fixtures__/source-process';

describe('serveModuleOverStdio (a real child process)', () => {
  it("serves the module's exported toolsets until the client disconnects", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...sourceProcessArgs('serve-module-fixture.ts'), 'tools-module.ts'],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'module-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['wx_forecast', 'save_note', 'get_weather']);
    expect(client.getServerVersion()?.name).toBe('tools-module');
    const result = (await client.callTool({ name: 'wx_forecast', arguments: { city: 'Nice', days: 1 } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ forecast: '1-day forecast for Nice from module-stub: mild' });
    // The module's artifactService export reaches the tools' contexts.
    const saved = (await client.callTool({ name: 'save_note', arguments: { filename: 'a.txt', text: 'hi' } })) as CallToolResult;
    expect(saved.structuredContent).toEqual({ version: 0, files: ['a.txt'] });
    // The module's console.log went to stderr, not into the protocol stream.
    expect(stderr).toContain('a module that logs while loading');

    const exited = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    await client.close();
    await exited;
  });
});
