import { join } from 'node:path';
import { LlmAgent, Runner } from '@toolsmith/core';
import { ScriptedModel, waitFor } from '@toolsmith/core/testing';
import { McpToolset } from './mcp-toolset';
import { McpConnectionError } from './mcp-errors';
import { SNAPSHOT } from './__fixtures__/fixture-mcp-server';
import { startFixtureHttpServer } from './__fixtures__/http-fixture-server';
import { sourceProcessArgs } from './__fixtures__/source-process';
import { callThrough, errorCode, toolContext } from './__fixtures__/tool-harness';

const fixtures = join(__dirname, '__fixtures__');
const stdioServer = (file: string) => ({ command: process.execPath, args: sourceProcessArgs(file), stderr: 'ignore' as const });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('McpToolset over stdio (a real child process)', () => {
  const toolset = new McpToolset({ transport: stdioServer('stdio-fixture-server.ts'), timeoutMs: 60_000 }); // no test here waits on it: 12 MiB over stdio must not time out on a loaded machine
  afterAll(() => toolset.close());

  it("offers the server's tools with its schemas as the canonical schema", async () => {
    const tools = await toolset.getTools(toolContext());
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add', 'fail', 'hang', 'crash', 'whoami']));
    const add = tools.find((tool) => tool.name === 'add')!;
    expect(add.description).toBe('Adds two numbers.');
    expect(add.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.declaration().response).toMatchObject({ properties: { sum: { type: 'number' } } });
  });

  it('maps text content to { output } and structured content to the response object', async () => {
    expect((await callThrough(toolset, 'echo', { text: 'hi' })).response).toEqual({ output: 'echo: hi' });
    expect((await callThrough(toolset, 'add', '{"a":2,"b":3}')).response).toEqual({ sum: 5 });
  });

  it("turns the server's image, audio and blob resource content into the result's files (parts), a text resource into text", async () => {
    const response = await callThrough(toolset, 'snapshot', {});
    expect(response.isError).toBeUndefined();
    expect(response.response).toEqual({ output: 'Q3 snapshot\n[resource notes://q3 (text/plain)]\nsales up' });
    expect(response.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: SNAPSHOT.png } },
      { inlineData: { mimeType: 'audio/wav', data: SNAPSHOT.wav } },
      { inlineData: { mimeType: 'application/pdf', data: SNAPSHOT.pdf, displayName: 'summary.pdf' } },
    ]);
    // The base64 of the files is not in the JSON the result budget counts.
    expect(JSON.stringify(response.response)).not.toContain(SNAPSHOT.png);
  });

  it('refuses image content whose bytes are not its media type as a local tool\'s file (INVALID_TOOL_RESULT): nothing of it is kept', async () => {
    const response = await callThrough(toolset, 'mislabeled_photo', {});
    expect(errorCode(response)).toBe('INVALID_TOOL_RESULT');
    expect(JSON.stringify(response.response)).toContain('the file has data declared image/png whose bytes are a JPEG image (image/jpeg)');
    expect(response.parts).toBeUndefined();
  });

  it("takes files up to the file limit over stdio (past the SDK's 10 MiB message default), and names a resource file by its path only", async () => {
    const response = await callThrough(toolset, 'big_image', { mebibytes: 9 }); // 12 MiB of base64 in one message
    expect(response.isError).toBeUndefined();
    expect(response.parts?.map((part) => [part.inlineData?.mimeType, part.inlineData?.data.length, part.inlineData?.displayName])).toEqual([
      ['image/png', Math.ceil((9 * 1024 * 1024) / 3) * 4, undefined],
      ['application/pdf', SNAPSHOT.pdf.length, 'report v2.pdf'], // not the signed query, not the fragment
    ]);
    // The connection is still the same one.
    expect((await callThrough(toolset, 'echo', { text: 'after' })).response).toEqual({ output: 'echo: after' });
  });

  it('validates arguments with ajv before anything is sent', async () => {
    const response = await callThrough(toolset, 'add', { a: 'two', b: 3 });
    expect(errorCode(response)).toBe('INVALID_ARGUMENTS');
    expect(JSON.stringify(response.response)).toContain('a: got \\"two\\", expected number');
  });

  it('turns an isError result into an error response', async () => {
    const response = await callThrough(toolset, 'fail', {});
    expect(errorCode(response)).toBe('MCP_TOOL_ERROR');
    expect(response.response.error).toMatchObject({ message: 'The tool failed: kaboom' });
  });

  it('reuses one session, and reconnects once after the server crashed', async () => {
    const first = (await callThrough(toolset, 'whoami', {})).response.pid as number;
    expect((await callThrough(toolset, 'whoami', {})).response.pid).toBe(first);

    const crashed = await callThrough(toolset, 'crash', {});
    expect(errorCode(crashed)).toBe('MCP_CONNECTION_CLOSED');
    await waitFor(() => !isAlive(first));

    const second = await callThrough(toolset, 'whoami', {});
    expect(second.isError).toBeUndefined();
    expect(second.response.pid).not.toBe(first);
  });

  it('sees a changed tool list on the next request', async () => {
    expect((await toolset.getTools(toolContext())).map((tool) => tool.name)).not.toContain('late');
    await callThrough(toolset, 'grow', {});
    expect((await callThrough(toolset, 'late', {})).response).toEqual({ output: 'late tool ran' });
  });

  it('stops the server process on close, and connects again when used after that', async () => {
    const pid = (await callThrough(toolset, 'whoami', {})).response.pid as number;
    await toolset.close();
    await waitFor(() => !isAlive(pid));
    expect((await callThrough(toolset, 'echo', { text: 'again' })).response).toEqual({ output: 'echo: again' });
  });
});

describe('McpToolset against servers that misbehave', () => {
  it('reports a hung tool as a timeout, and the session keeps working', async () => {
    const toolset = new McpToolset({ transport: stdioServer('stdio-fixture-server.ts'), timeoutMs: 600 });
    try {
      const hung = await callThrough(toolset, 'hang', {});
      expect(errorCode(hung)).toBe('MCP_TIMEOUT');
      expect((await callThrough(toolset, 'echo', { text: 'still here' })).response).toEqual({ output: 'echo: still here' });

      // The run's signal cancels a call at once (the executor ends it; its signal aborts the MCP request).
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 50);
      expect(errorCode(await callThrough(toolset, 'hang', {}, toolContext({}, abort.signal)))).toBe('RUN_ABORTED');
      expect((await callThrough(toolset, 'echo', { text: 'after the abort' })).response).toEqual({ output: 'echo: after the abort' });
    } finally {
      await toolset.close();
    }
  });

  it('turns garbage results, unparseable output and JSON-RPC errors into error responses', async () => {
    const toolset = new McpToolset({ transport: stdioServer('garbage-mcp-server.ts'), timeoutMs: 600 });
    try {
      const malformed = await callThrough(toolset, 'malformed', {});
      expect(errorCode(malformed)).toBe('MCP_PROTOCOL_ERROR');
      expect(JSON.stringify(malformed.response)).toContain('not valid MCP');

      const failed = await callThrough(toolset, 'rpc_error', {});
      expect(errorCode(failed)).toBe('MCP_PROTOCOL_ERROR');
      expect(JSON.stringify(failed.response)).toContain('internal meltdown');

      expect(errorCode(await callThrough(toolset, 'noise', {}))).toBe('MCP_TIMEOUT');
    } finally {
      await toolset.close();
    }
  });

  it("names a stdio server in its errors by its command's name only: never its arguments or environment (they may hold passwords)", async () => {
    const secret = 'postgresql://app:hunter2-db-pass@db.internal:5432/prod';
    const crashing = new McpToolset({ transport: { ...stdioServer('stdio-fixture-server.ts'), args: [...sourceProcessArgs('stdio-fixture-server.ts'), secret], env: { DB_PASSWORD: 'hunter2-env' } } });
    const dead = new McpToolset({ transport: { command: process.execPath, args: ['-e', 'process.exit(3)', secret], stderr: 'ignore' }, protocol: '2025-11-25', connectTimeoutMs: 5000 });
    try {
      const crashed = await callThrough(crashing, 'crash', {});
      expect(errorCode(crashed)).toBe('MCP_CONNECTION_CLOSED');
      const failure = (await dead.getTools(toolContext()).catch((error: unknown) => error)) as McpConnectionError;
      expect(failure).toMatchObject({ code: 'MCP_CONNECTION_FAILED', server: 'stdio:node' });
      for (const said of [JSON.stringify(crashed.response), JSON.stringify(failure), failure.message]) {
        expect(said).toContain('MCP server stdio:node: ');
        expect(said).not.toMatch(/hunter2|fixture|process\.exit/);
      }
    } finally {
      await crashing.close();
      await dead.close();
    }
  });

  it('refuses a transport that cannot work when it is constructed', () => {
    for (const transport of [{ command: '' }, { url: 'not a url' }, { url: 'ftp://example.com/mcp' }, {}]) {
      expect(() => new McpToolset({ transport: transport as { url: string } })).toThrow(
        expect.objectContaining({ code: 'INVALID_MCP_TRANSPORT' }),
      );
    }
  });

  it('gives up on a server that never completes the handshake', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], stderr: 'ignore' as const };
    const toolset = new McpToolset({ transport: silent, connectTimeoutMs: 300 });
    await expect(toolset.getTools(toolContext())).rejects.toMatchObject({ code: 'MCP_CONNECTION_FAILED' });
    await toolset.close();
  });

  it('fails getTools with a typed error when the server cannot be started', async () => {
    const toolset = new McpToolset({ transport: { command: join(fixtures, 'no-such-server'), stderr: 'ignore' }, connectTimeoutMs: 2000 });
    const failure = await toolset.getTools(toolContext()).catch((error: unknown) => error);
    expect(McpConnectionError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'MCP_CONNECTION_FAILED' });
    await toolset.close();
  });
});

describe('McpToolset over Streamable HTTP', () => {
  it('lists and calls tools, filtered and prefixed', async () => {
    const server = await startFixtureHttpServer();
    const toolset = new McpToolset({ transport: { url: server.url }, prefix: 'fx_', toolFilter: ['echo', 'add'] });
    try {
      expect((await toolset.getTools(toolContext())).map((tool) => tool.name)).toEqual(['fx_echo', 'fx_add']);
      expect((await callThrough(toolset, 'fx_add', { a: 1, b: 2 })).response).toEqual({ sum: 3 });
      expect(errorCode(await callThrough(toolset, 'whoami', {}))).toBe('TOOL_NOT_FOUND');
    } finally {
      await toolset.close();
      await server.close();
    }
  });

  it("sends per-run headers from the run's state, one session per header set", async () => {
    const server = await startFixtureHttpServer();
    const toolset = new McpToolset({
      transport: { url: server.url, headers: (context) => ({ authorization: `Bearer ${context.state.get<string>('user:token')}` }) },
      toolFilter: (tool) => tool.name === 'whoami',
    });
    try {
      const alice = await callThrough(toolset, 'whoami', {}, toolContext({ 'user:token': 'alice-token' }));
      const bob = await callThrough(toolset, 'whoami', {}, toolContext({ 'user:token': 'bob-token' }));
      const aliceAgain = await callThrough(toolset, 'whoami', {}, toolContext({ 'user:token': 'alice-token' }));
      expect(alice.response.authorization).toBe('Bearer alice-token');
      expect(bob.response.authorization).toBe('Bearer bob-token');
      expect(bob.response.session).not.toBe(alice.response.session);
      expect(aliceAgain.response.session).toBe(alice.response.session);
    } finally {
      await toolset.close();
      await server.close();
    }
  });

  it('fails the listing with a typed error when the headers or toolFilter function throws or rejects (the run ends with that code)', async () => {
    const server = await startFixtureHttpServer();
    const throwing = new McpToolset({ transport: { url: server.url, headers: () => { throw new Error('no token for bob'); } } });
    const rejecting = new McpToolset({ transport: { url: server.url, headers: () => Promise.reject(new Error('vault is down')) } });
    const badFilter = new McpToolset({ transport: { url: server.url }, toolFilter: () => Promise.reject(new Error('policy service is down')) });
    const asyncFilter = new McpToolset({ transport: { url: server.url }, toolFilter: async (tool) => tool.name === 'add' });
    const label = `${new URL(server.url).origin}/mcp`;
    try {
      await expect(throwing.getTools(toolContext())).rejects.toMatchObject({ code: 'MCP_HEADERS_FAILED', message: `MCP server ${label}: the headers function failed, so nothing was sent to the server: no token for bob` });
      await expect(rejecting.getTools(toolContext())).rejects.toMatchObject({ code: 'MCP_HEADERS_FAILED', message: expect.stringContaining('vault is down') });
      await expect(badFilter.getTools(toolContext())).rejects.toMatchObject({
        code: 'MCP_TOOL_FILTER_FAILED',
        message: `MCP server ${label}: the toolFilter function failed, so none of the server's tools is offered: policy service is down`,
      });
      expect((await asyncFilter.getTools(toolContext())).map((tool) => tool.name)).toEqual(['add']);

      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model: new ScriptedModel(['unused']), tools: [throwing] }) });
      const events = [];
      for await (const event of runner.run({ userId: 'bob', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) events.push(event);
      expect(events.at(-1)).toMatchObject({ errorCode: 'MCP_HEADERS_FAILED', errorMessage: expect.stringContaining('the headers function failed') });
    } finally {
      for (const toolset of [throwing, rejecting, badFilter, asyncFilter]) await toolset.close();
      await server.close();
    }
  });

  it('reconnects once when the server forgot the session', async () => {
    const server = await startFixtureHttpServer();
    const toolset = new McpToolset({ transport: { url: server.url } });
    try {
      const before = (await callThrough(toolset, 'whoami', {})).response.session;
      await server.closeSessions();
      const after = await callThrough(toolset, 'whoami', {});
      expect(after.isError).toBeUndefined();
      expect(after.response.session).not.toBe(before);
    } finally {
      await toolset.close();
      await server.close();
    }
  });

  it('gives the model an error response when the server is gone, and keeps offering the tools', async () => {
    const server = await startFixtureHttpServer();
    const toolset = new McpToolset({ transport: { url: server.url }, timeoutMs: 2000 });
    try {
      await toolset.getTools(toolContext());
      await server.close();
      const response = await callThrough(toolset, 'echo', { text: 'anyone?' });
      expect(response.isError).toBe(true);
      expect(errorCode(response)).toMatch(/^MCP_CONNECTION_(CLOSED|FAILED)$/);
    } finally {
      await toolset.close();
    }
  });
});
