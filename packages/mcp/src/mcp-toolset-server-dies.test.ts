import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { McpProtocolChoice } from './mcp-connection';
import { McpToolset } from './mcp-toolset';
import { bundleFixture } from './__fixtures__/bundle-fixture';
import { callThrough, errorCode } from './__fixtures__/tool-harness';

/** A serveMcp child process over HTTP, and a promise of each line it prints. */
function startServer(script: string, port: number): { child: ChildProcess; line: (wanted: (text: string) => boolean) => Promise<string> } {
  const child = spawn(process.execPath, [script], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout! });
  return {
    child,
    line: (wanted) =>
      new Promise((resolve, reject) => {
        lines.on('line', (text) => wanted(text) && resolve(text));
        child.once('exit', () => reject(new Error('the server exited')));
      }),
  };
}

describe.each<McpProtocolChoice>(['2025-11-25', '2026-07-28'])('McpToolset over HTTP (%s): a server that dies mid-call', (protocol) => {
  let script: string;
  beforeAll(async () => (script = await bundleFixture('serve-http-child-fixture.ts')));

  it('answers the call in flight with MCP_CONNECTION_CLOSED (not a timeout), and a later call reaches the restarted server', async () => {
    const first = startServer(script, 0);
    const url = (await first.line((text) => text.startsWith('URL '))).slice(4);
    // A timeout far beyond any test bound: only the broken connection can end the call.
    const toolset = new McpToolset({ transport: { url }, protocol, timeoutMs: 600_000 });
    let second: ReturnType<typeof startServer> | undefined;
    try {
      const started = first.line((text) => text === 'STARTED');
      const call = callThrough(toolset, 'hang', {});
      await started;
      first.child.kill('SIGKILL');
      const response = await call;
      expect(errorCode(response)).toBe('MCP_CONNECTION_CLOSED');

      second = startServer(script, Number(new URL(url).port));
      await second.line((text) => text.startsWith('URL '));
      expect((await callThrough(toolset, 'note', {})).response).toEqual({ noted: true });
    } finally {
      await toolset.close();
      first.child.kill('SIGKILL');
      second?.child.kill('SIGKILL');
    }
  });

  it('answers MCP_CONNECTION_CLOSED once the call\'s cut SSE response stream cannot be resumed (the server had sent progress on it), not after the timeout', async () => {
    const server = startServer(script, 0);
    const url = (await server.line((text) => text.startsWith('URL '))).slice(4);
    let progressed!: () => void;
    const progressSeen = new Promise<void>((resolve) => (progressed = resolve));
    // A timeout far beyond any test bound: only the broken stream can end the call.
    const toolset = new McpToolset({ transport: { url }, protocol, timeoutMs: 600_000, onProgress: () => progressed() });
    try {
      const call = callThrough(toolset, 'hang_streaming', {});
      // The client is reading the call's response stream (it saw the progress sent on it).
      await progressSeen;
      server.child.kill('SIGKILL');
      expect(errorCode(await call)).toBe('MCP_CONNECTION_CLOSED');
    } finally {
      await toolset.close();
      server.child.kill('SIGKILL');
    }
  });
});
