import { rm } from 'node:fs/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Param, Resource, ResourceTemplate, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { addMcpResourceLink } from './mcp-resource-link';
import { bundleFixture } from './__fixtures__/bundle-fixture';

// Resource subscriptions (2025-11-25: resources/subscribe per session; 2026-07-28: subscriptions/listen)
// told of a change by McpServerHandle.notifyResourceUpdated, and tool results with resource links, with
// the SDK v2 client in both eras.

const MODERN = '2026-07-28';

/** A promise and its resolve. */
class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => (this.resolve = resolve));
}

@Toolset()
class NotesOfferings {
  @Resource({ uri: 'notes://a', description: 'Note a.' })
  a() {
    return 'a';
  }

  @Resource({ uri: 'notes://b', description: 'Note b.' })
  b() {
    return 'b';
  }

  @ResourceTemplate({ uriTemplate: 'notes://pages/{page}' })
  page(vars: { page: string }) {
    return vars.page;
  }

  @Tool({ description: 'Writes a note and links to it.' })
  write(@Param('name') name: string, ctx: ToolContext) {
    const linked = addMcpResourceLink(ctx, { uri: `notes://pages/${name}`, name, title: `Page ${name}`, mimeType: 'text/plain' });
    return { written: name, linked };
  }
}

/** A client that records the `notifications/resources/updated` it gets, one awaitable at a time. */
class Watcher {
  readonly client: Client;
  private readonly received: string[] = [];
  private waiting?: Deferred<string>;
  /** Resolves once the client's standalone SSE stream (where 2025-era notifications go) is open. */
  readonly streamOpen = new Deferred<void>();

  constructor(pin?: string) {
    this.client = new Client({ name: 'watcher', version: '1' }, pin ? { versionNegotiation: { mode: { pin } } } : {});
    this.client.setNotificationHandler('notifications/resources/updated', (notification) => {
      this.received.push(notification.params.uri);
      this.waiting?.resolve(this.received.shift()!);
      this.waiting = undefined;
    });
  }

  async connect(url: URL): Promise<void> {
    const fetchSeeingStream: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.ok) this.streamOpen.resolve();
      return response;
    };
    await this.client.connect(new StreamableHTTPClientTransport(url, { fetch: fetchSeeingStream }));
  }

  /** The next URI the client was told of. */
  next(): Promise<string> {
    if (this.received.length) return Promise.resolve(this.received.shift()!);
    this.waiting = new Deferred<string>();
    return this.waiting.promise;
  }
}

describe('serveMcp: resource subscriptions and resource links', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp({ tools: [NotesOfferings], transport: { http: { port: 0 } } });
  });
  afterAll(() => server.close());

  it('2025-11-25: tells only the sessions subscribed to a URI, until they unsubscribe', async () => {
    const first = new Watcher();
    const second = new Watcher();
    await first.connect(server.url!);
    await second.connect(server.url!);
    try {
      expect(first.client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
      await Promise.all([first.streamOpen.promise, second.streamOpen.promise]);
      await first.client.subscribeResource({ uri: 'notes://a' });
      await second.client.subscribeResource({ uri: 'notes://b' });
      await server.notifyResourceUpdated('notes://a');
      await server.notifyResourceUpdated('notes://b');
      expect(await first.next()).toBe('notes://a');
      // The second session was told of b only: a, sent before b on the same stream, would have come first.
      expect(await second.next()).toBe('notes://b');

      await first.client.unsubscribeResource({ uri: 'notes://a' });
      await first.client.subscribeResource({ uri: 'notes://pages/intro' });
      await server.notifyResourceUpdated('notes://a');
      await server.notifyResourceUpdated('notes://pages/intro');
      expect(await first.next()).toBe('notes://pages/intro');
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });

  it('2025-11-25: refuses to subscribe to a URI the server does not offer', async () => {
    const watcher = new Watcher();
    await watcher.connect(server.url!);
    try {
      await expect(watcher.client.subscribeResource({ uri: 'notes://nowhere' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await watcher.client.close();
    }
  });

  it('2025-11-25: refuses a subscribe or unsubscribe whose uri is missing or not a string, and a URI with a malformed percent-encoding, with -32602 in one sentence', async () => {
    const post = async (body: Record<string, unknown>, session?: string) =>
      fetch(server.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
    const initialized = await post({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = initialized.headers.get('mcp-session-id')!;
    await initialized.text();
    await (await post({ method: 'notifications/initialized' }, session)).text();
    const errorOf = async (id: number, method: string, params: Record<string, unknown>) => {
      const text = await (await post({ id, method, params }, session)).text();
      const json = text.startsWith('{') ? text : /^data: (\{.*)$/m.exec(text)![1]!;
      return (JSON.parse(json) as { error?: { code: number; message: string } }).error;
    };
    expect(await errorOf(2, 'resources/subscribe', { uri: 7 })).toEqual({ code: -32602, message: 'Invalid params for resources/subscribe: "uri" must be a string, got the number 7.' });
    expect(await errorOf(3, 'resources/unsubscribe', { uri: 7 })).toEqual({ code: -32602, message: 'Invalid params for resources/unsubscribe: "uri" must be a string, got the number 7.' });
    expect(await errorOf(4, 'resources/subscribe', {})).toEqual({ code: -32602, message: 'Invalid params for resources/subscribe: "uri" must be a string, got nothing.' });
    expect(await errorOf(5, 'resources/unsubscribe', {})).toEqual({ code: -32602, message: 'Invalid params for resources/unsubscribe: "uri" must be a string, got nothing.' });
    // As resources/read refuses it:
    const malformed = { code: -32602, message: 'The resource URI "notes://pages/%zz" has a malformed percent-encoding.' };
    expect(await errorOf(6, 'resources/read', { uri: 'notes://pages/%zz' })).toEqual(malformed);
    expect(await errorOf(7, 'resources/subscribe', { uri: 'notes://pages/%zz' })).toEqual(malformed);
    await (await fetch(server.url!, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } })).text();
  });

  it('2026-07-28: tells an open subscriptions/listen stream of the URIs it names only', async () => {
    const watcher = new Watcher(MODERN);
    await watcher.connect(server.url!);
    try {
      const subscription = await watcher.client.listen({ resourceSubscriptions: ['notes://a'] });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['notes://a'] });
      await server.notifyResourceUpdated('notes://b');
      await server.notifyResourceUpdated('notes://a');
      expect(await watcher.next()).toBe('notes://a');
      await subscription.close();
    } finally {
      await watcher.client.close();
    }
  });

  it.each([
    ['2025-11-25', undefined],
    ['2026-07-28', MODERN],
  ])('%s: a tool result carries the resource links the tool added, after its JSON', async (_era, pin) => {
    const client = new Client({ name: 'links', version: '1' }, pin ? { versionNegotiation: { mode: { pin } } } : {});
    await client.connect(new StreamableHTTPClientTransport(server.url!));
    try {
      const result = await client.callTool({ name: 'write', arguments: { name: 'intro' } });
      expect(result.content).toEqual([
        { type: 'text', text: JSON.stringify({ written: 'intro', linked: true }) },
        { type: 'resource_link', uri: 'notes://pages/intro', name: 'intro', title: 'Page intro', mimeType: 'text/plain' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('serveMcp over stdio: resource subscriptions told by the app (a tool calls notifyResourceUpdated)', () => {
  let fixture: string;
  beforeAll(async () => {
    fixture = await bundleFixture('serve-subscriptions-stdio-fixture.ts');
  });
  afterAll(() => rm(fixture, { force: true }));

  const touch = (watcher: Watcher, uri: string) => watcher.client.callTool({ name: 'touch_resource', arguments: { uri } });

  it.each([
    ['2025-11-25 (resources/subscribe)', undefined],
    ['2026-07-28 (subscriptions/listen)', MODERN],
  ])('%s: the client is told of the subscribed URI only', async (_era, pin) => {
    const watcher = new Watcher(pin);
    await watcher.client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'ignore' }));
    try {
      if (pin) await watcher.client.listen({ resourceSubscriptions: ['test://watched-resource'] });
      else await watcher.client.subscribeResource({ uri: 'test://watched-resource' });
      // Each notification is written before the call's result, on the one pipe: static-text would come first.
      await touch(watcher, 'test://static-text');
      await touch(watcher, 'test://watched-resource');
      expect(await watcher.next()).toBe('test://watched-resource');
    } finally {
      await watcher.client.close();
    }
  });
});
