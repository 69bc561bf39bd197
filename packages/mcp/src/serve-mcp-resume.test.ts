import { functionTool } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from './serve-mcp';

// A client whose SSE stream drops mid-call resumes it (GET with Last-Event-ID) and still gets the
// call's result: the server sends a priming event (id, retry) first and keeps what it sends (raw HTTP,
// so the drop and the resumption are the test's own).

const PROTOCOL = '2025-11-25';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** Reads SSE events from a response body until `until` accepts one; returns the events read. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended after ${JSON.stringify(events)}`);
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event: SseEvent = { data: '' };
      for (const line of buffer.slice(0, end).split('\n')) {
        const [field, ...rest] = line.split(':');
        const text = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = text;
        else if (field === 'retry') event.retry = text;
        else if (field === 'data') event.data += text;
      }
      buffer = buffer.slice(end + 2);
      events.push(event);
      if (until(event)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

describe('serveMcp over Streamable HTTP: a dropped stream resumes', () => {
  const release = deferred();
  const started = deferred();
  const waitForRelease = functionTool({
    name: 'wait_for_release',
    description: 'Returns once the test releases it.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: async () => {
      started.resolve();
      await release.promise;
      return { released: true };
    },
  });
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp({ tools: [waitForRelease], transport: { http: { port: 0 } } });
  });
  afterAll(() => server.close());

  const post = (body: object, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(server.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
      signal,
    });

  it('sends the call result on the resumed stream after the client dropped the first', async () => {
    const initialize = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = initialize.headers.get('mcp-session-id')!;
    await initialize.body?.cancel();
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

    const dropped = new AbortController();
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_release', arguments: {} } }, session, dropped.signal);
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const [priming] = await readEvents(call.body!, (event) => event.id !== undefined);
    expect(priming).toMatchObject({ id: expect.any(String), retry: '1000', data: '' });
    await started.promise;
    dropped.abort();
    release.resolve();

    const resumed = await fetch(server.url!, { headers: { accept: 'text/event-stream', 'last-event-id': priming.id!, ...session } });
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed.body!, (event) => event.data.includes('"id":2'));
    expect(JSON.parse(events[events.length - 1].data)).toMatchObject({ id: 2, result: { structuredContent: { released: true } } });
  });

  it('refuses to resume from an event it does not hold', async () => {
    const initialize = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = initialize.headers.get('mcp-session-id')!;
    await initialize.body?.cancel();
    const resumed = await fetch(server.url!, { headers: { accept: 'text/event-stream', 'last-event-id': '999999', 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL } });
    expect(resumed.status).toBeGreaterThanOrEqual(400);
    await resumed.body?.cancel();
  });
});

describe('serveMcp over Streamable HTTP with resumeBufferBytes: 0', () => {
  const echo = functionTool({
    name: 'echo',
    description: 'Echoes.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    execute: (args: { text: string }) => ({ text: args.text }),
  });
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp({ tools: [echo], transport: { http: { port: 0, resumeBufferBytes: 0 } } });
  });
  afterAll(() => server.close());

  it('sends no priming event: the first event of a call is its result, without an id', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const initialize = await fetch(server.url!, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const session = { ...headers, 'mcp-session-id': initialize.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
    await initialize.body?.cancel();
    await fetch(server.url!, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const call = await fetch(server.url!, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
    });
    const [first] = await readEvents(call.body!, () => true);
    expect(first.id).toBeUndefined();
    expect(JSON.parse(first.data)).toMatchObject({ id: 2, result: { structuredContent: { text: 'hi' } } });
  });
});
