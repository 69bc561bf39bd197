import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OfferingDefinitionError, Prompt, Resource, ResourceTemplate, Toolset } from '@toolsmith/core';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { MCP_SESSION_META } from './mcp-request-session';
import { DocsLibrary, DocsOfferings } from './__fixtures__/docs-offerings';
import { bundleFixture } from './__fixtures__/bundle-fixture';

// What a class offers besides tools (resources, templates, prompts, completions), served by serveMcp and
// used by the official SDK clients of both protocol eras over HTTP, and over stdio.

const MODERN = '2026-07-28';

/** The calls a test makes, the same for the 1.x client (2025-11-25, a session) and the v2 client pinned to 2026-07-28. */
interface EraClient {
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  listPrompts(): Promise<{ prompts: unknown[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: unknown[] }>;
  complete(params: unknown): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  callTool(params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown>;
  getServerCapabilities(): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

const library = new DocsLibrary({ intro: 'Toolsmith turns classes into tools.', install: 'npm install @toolsmith/core' });

/** A result without its `_meta` (a 2026-07-28 server names itself there in every result). */
const withoutMeta = <T extends object>(result: T): Omit<T, '_meta'> => {
  const { _meta, ...rest } = result as T & { _meta?: unknown };
  return rest;
};

/** The JSON-RPC error a request got: its code, message and data. */
async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error('the request succeeded');
}

describe('serveMcp: resources, resource templates, prompts and completions from a @Toolset class', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp({
      tools: [DocsOfferings],
      providers: [{ provide: DocsLibrary, useValue: library }],
      transport: { http: { port: 0 } },
      name: 'docs',
    });
  });
  afterAll(() => server.close());

  const eras: [string, () => Promise<EraClient>][] = [
    [
      '2025-11-25 (1.x client, a session)',
      async () => {
        const client = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
        await client.connect(new LegacyHttpTransport(server.url!));
        return client as unknown as EraClient;
      },
    ],
    [
      '2026-07-28 (v2 client, stateless)',
      async () => {
        const client = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
        await client.connect(new ModernHttpTransport(server.url!));
        return client as unknown as EraClient;
      },
    ],
  ];

  describe.each(eras)('%s', (_era, connect) => {
    let client: EraClient;
    beforeAll(async () => {
      client = await connect();
    });
    afterAll(() => client.close());

    it('declares the capabilities and lists the resources and templates as declared', async () => {
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
      const { resources } = await client.listResources();
      expect(resources).toContainEqual({ uri: 'docs://readme', name: 'readme', title: 'Readme', description: 'The readme.', mimeType: 'text/markdown' });
      expect(resources).toContainEqual({ uri: 'docs://logo', name: 'logo', description: 'The logo, as bytes.', mimeType: 'image/png' });
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'docs://pages/{page}', name: 'page', description: 'One page.' }]);
    });

    it('reads text and bytes, and a template with its variables, from the DI-built instance', async () => {
      expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([
        { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Readme for mcp (note: none)' },
      ]);
      expect((await client.readResource({ uri: 'docs://logo' })).contents).toEqual([
        { uri: 'docs://logo', mimeType: 'image/png', blob: Buffer.from([137, 80, 78, 71]).toString('base64') },
      ]);
      expect((await client.readResource({ uri: 'docs://raw' })).contents).toEqual([{ uri: 'docs://raw', mimeType: 'application/octet-stream', blob: 'AQID' }]);
      expect((await client.readResource({ uri: 'docs://pages/intro' })).contents).toEqual([
        { uri: 'docs://pages/intro', mimeType: 'text/plain', text: 'Toolsmith turns classes into tools.' },
      ]);
      expect((await client.readResource({ uri: 'docs://pages/caf%C3%A9' })).contents).toEqual([
        { uri: 'docs://pages/caf%C3%A9', mimeType: 'text/plain', text: 'No page café.' },
      ]);
      expect(await rpcError(client.readResource({ uri: 'docs://pages/caf%E9%' }))).toMatchObject({ code: -32602, message: expect.stringContaining('malformed percent-encoding') });
    });

    it('lists the prompts and makes one from its arguments', async () => {
      expect((await client.listPrompts()).prompts).toEqual([
        { name: 'explain', description: 'Explain a page.', arguments: [{ name: 'page', required: true }, { name: 'level', description: 'beginner or expert' }] },
      ]);
      expect(withoutMeta(await client.getPrompt({ name: 'explain', arguments: { page: 'install', level: 'expert' } }))).toEqual({
        description: 'Explain a page.',
        messages: [{ role: 'user', content: { type: 'text', text: 'Explain install to a expert: npm install @toolsmith/core' } }],
      });
    });

    it('completes prompt arguments (with the arguments already given) and template variables, at most 100 values', async () => {
      expect(withoutMeta(await client.complete({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'level', value: 'e' } }))).toEqual({
        completion: { values: ['expert'], total: 1, hasMore: false },
      });
      expect(
        (await client.complete({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'level', value: 'for' }, context: { arguments: { page: 'intro' } } })).completion.values,
      ).toEqual(['for-intro']);
      expect((await client.complete({ ref: { type: 'ref/resource', uri: 'docs://pages/{page}' }, argument: { name: 'page', value: 'in' } })).completion).toEqual({
        values: ['intro', 'install'],
        total: 2,
        hasMore: false,
      });
      const many = (await client.complete({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'page', value: '' } })).completion;
      expect([many.values.length, many.values[99], many.total, many.hasMore]).toEqual([100, 'page-99', 150, true]);
    });

    it('answers unknown URIs, prompts and arguments, and missing required arguments, with invalid params (-32602)', async () => {
      expect(await rpcError(client.readResource({ uri: 'docs://nothing' }))).toMatchObject({ code: -32602 });
      expect(await rpcError(client.getPrompt({ name: 'nothing' }))).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown prompt "nothing".') });
      expect(await rpcError(client.getPrompt({ name: 'explain', arguments: { level: 'expert' } }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Prompt "explain" needs the argument "page".'),
      });
      expect(await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'colour', value: '' } }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('The prompt "explain" has no argument "colour".'),
      });
      expect(await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'nothing' }, argument: { name: 'x', value: '' } }))).toMatchObject({ code: -32602 });
    });

    it('answers arguments a prompt or template does not have, and wrong-typed params, with invalid params (-32602) and one sentence', async () => {
      expect(await rpcError(client.getPrompt({ name: 'explain', arguments: { page: 'intro', colour: 'red' } }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Prompt "explain" has no argument "colour".'),
      });
      const context = { arguments: { page: 'intro', colour: 'red' } };
      expect(await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'level', value: '' }, context }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('The prompt "explain" has no argument "colour".'),
      });
      const wrong = (params: unknown) => params as never;
      for (const [answer, sentence] of [
        [() => client.readResource(wrong({ uri: 5 })), '"uri" must be a string, got the number 5.'],
        [() => client.getPrompt(wrong({ name: 'explain', arguments: { page: 5 } })), '"arguments.page" must be a string, got the number 5.'],
        [() => client.complete(wrong({ ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'level', value: '' }, context: { arguments: { page: 5 } } })), '"context.arguments.page" must be a string, got the number 5.'],
      ] as const) {
        // One request at a time: each is sent only when its answer is awaited.
        const error = await rpcError(answer());
        expect(error).toMatchObject({ code: -32602, message: expect.stringContaining(sentence) });
        expect(error.message).not.toMatch(/invalid_type|"path"/);
      }
    });

    it('answers a method that throws with -32603 and no internals; a Toolsmith error with its message and code', async () => {
      const broken = await rpcError(client.readResource({ uri: 'docs://broken' }));
      expect(broken).toMatchObject({ code: -32603, message: expect.stringContaining('Reading resource "docs://broken" failed.') });
      expect(JSON.stringify(broken)).not.toMatch(/secret|postgres/);
      expect(await rpcError(client.readResource({ uri: 'docs://refused' }))).toMatchObject({
        code: -32603,
        message: expect.stringContaining('The docs are locked.'),
        data: { code: 'DOCS_LOCKED' },
      });
      expect(await rpcError(client.readResource({ uri: 'docs://wrong' }))).toMatchObject({ code: -32603, data: { code: 'MCP_INVALID_RESOURCE_CONTENTS' } });
    });
  });

  it("gives a resource the session's state a tool wrote (2025-11-25 session; 2026-07-28 session named in _meta)", async () => {
    const legacy = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
    await legacy.connect(new LegacyHttpTransport(server.url!));
    await legacy.callTool({ name: 'note', arguments: { text: 'remember me' } });
    expect((await legacy.readResource({ uri: 'docs://readme' })).contents[0]).toMatchObject({ text: '# Readme for mcp (note: remember me)' });
    await legacy.close();

    const modern = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await modern.connect(new ModernHttpTransport(server.url!));
    await modern.callTool({ name: 'note', arguments: { text: 'kept' }, _meta: { [MCP_SESSION_META]: 'conversation-1' } });
    expect((await modern.readResource({ uri: 'docs://readme', _meta: { [MCP_SESSION_META]: 'conversation-1' } })).contents[0]).toMatchObject({ text: '# Readme for mcp (note: kept)' });
    expect((await modern.readResource({ uri: 'docs://readme' })).contents[0]).toMatchObject({ text: '# Readme for mcp (note: none)' });
    await modern.close();
  });
});

describe('serveMcp: what a class offers is checked at startup', () => {
  it('serves a class that offers only resources or prompts (no tools)', async () => {
    @Toolset()
    class OnlyPrompts {
      @Prompt({ description: 'Say hello.' })
      hello() {
        return 'Hello!';
      }
    }
    const server = await serveMcp({ tools: [OnlyPrompts], transport: { http: { port: 0 } } });
    try {
      const client = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
      await client.connect(new LegacyHttpTransport(server.url!));
      expect([(await client.listTools()).tools, (await client.listPrompts()).prompts.map((p) => p.name)]).toEqual([[], ['hello']]);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it('refuses two classes that offer one URI, or one prompt name, before serving', async () => {
    const resource = serveMcp({ tools: [offeringClass(Resource({ uri: 'docs://same' }), 'a'), offeringClass(Resource({ uri: 'docs://same' }), 'b')], transport: { http: { port: 0 } } });
    await expect(resource).rejects.toBeInstanceOf(OfferingDefinitionError);
    await expect(resource).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE_URI', message: expect.stringContaining('"docs://same"') });
    const prompts = [offeringClass(Prompt({ name: 'same' }), 'a'), offeringClass(Prompt({ name: 'same' }), 'c')];
    await expect(serveMcp({ tools: prompts, transport: { http: { port: 0 } } })).rejects.toMatchObject({ code: 'DUPLICATE_PROMPT_NAME' });
    // Two templates that differ only in their variables' names match the same URIs.
    const templates = [offeringClass(ResourceTemplate({ uriTemplate: 'docs://p/{a}' }), 'a'), offeringClass(ResourceTemplate({ uriTemplate: 'docs://p/{b}' }), 'b')];
    await expect(serveMcp({ tools: templates, transport: { http: { port: 0 } } })).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE_URI', message: expect.stringContaining('"docs://p/{a}" and "docs://p/{b}"') });
  });
});

/** A `@Toolset` class whose one method, under `offer` (a `@Resource`, `@ResourceTemplate` or `@Prompt`), answers `text`. */
function offeringClass(offer: ReturnType<typeof Resource>, text: string) {
  @Toolset()
  class Offering {
    @offer
    answer() {
      return text;
    }
  }
  return Offering;
}

describe('serveMcp over stdio: resources and prompts for both eras', () => {
  let fixture: string;
  beforeAll(async () => {
    fixture = await bundleFixture('serve-offerings-stdio-fixture.ts');
  });

  it('serves a 2025-11-25 client and a 2026-07-28 client', async () => {
    const legacy = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
    await legacy.connect(new LegacyStdioTransport({ command: process.execPath, args: [fixture], stderr: 'ignore' }));
    const modern = new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await modern.connect(new ModernStdioTransport({ command: process.execPath, args: [fixture], stderr: 'ignore' }));
    try {
      for (const client of [legacy as unknown as EraClient, modern as unknown as EraClient]) {
        expect((await client.readResource({ uri: 'test://template/7/data' })).contents).toEqual([
          { uri: 'test://template/7/data', mimeType: 'application/json', text: JSON.stringify({ id: '7', data: 'Data for ID: 7' }) },
        ]);
        expect((await client.getPrompt({ name: 'test_prompt_with_image' })).messages[0]).toMatchObject({ role: 'user', content: { type: 'image', mimeType: 'image/png' } });
        expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } })).completion.values).toEqual(['paris', 'park']);
        // An argument without a @Complete method has no suggestions.
        expect((await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg2', value: 'x' } })).completion.values).toEqual([]);
      }
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});
