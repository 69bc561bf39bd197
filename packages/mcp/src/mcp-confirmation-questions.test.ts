import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Content, type Event, InMemorySessionService, LlmAgent, Runner, confirmationRequests, confirmationResponse } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { McpProtocolChoice } from './mcp-connection';
import { McpToolset } from './mcp-toolset';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { type DiskToolRun, createDiskTools } from './__fixtures__/served-tools';
import { bundleFixture } from './__fixtures__/bundle-fixture';

// McpToolset asks the person every question a server asks about a call, and answers for them only the
// question they saw: a served tool's `editable: false` reaches the client's runner in both eras, and a call
// sent again after an approval or an edit is never confirmed with a question nobody saw.

type ToolsetTransport = ConstructorParameters<typeof McpToolset>[0]['transport'];

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const responseOf = (events: Event[], id: string) => events.flatMap((event) => event.functionResponses()).find((response) => response.id === id);

/** A runner whose agent uses the disk tools through McpToolset, speaking `protocol`. */
function agentRunner(transport: ToolsetTransport, protocol: McpProtocolChoice, script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const toolset = new McpToolset({ transport, protocol, timeoutMs: 20_000 });
  const runner = new Runner({ appName: 'disks', agent: new LlmAgent({ name: 'operator', model: new ScriptedModel(script), tools: [toolset] }), sessionService: new InMemorySessionService() });
  const send = async (newMessage: Content) => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
    return events;
  };
  return { runner, send };
}

describe.each([
  ['Streamable HTTP', 'http', '2025-11-25'],
  ['Streamable HTTP', 'http', '2026-07-28'],
  ['stdio (a real child process)', 'stdio', '2025-11-25'],
  ['stdio (a real child process)', 'stdio', '2026-07-28'],
] as const)('a Toolsmith server over %s (%s), a client speaking %s', (_label, kind, protocol) => {
  let transport: ToolsetTransport;
  let runs: () => DiskToolRun[];
  let server: McpServerHandle | undefined;
  const file = join(tmpdir(), `toolsmith-disk-runs-${process.pid}-${protocol}.jsonl`);
  beforeAll(async () => {
    if (kind === 'http') {
      const ran: DiskToolRun[] = [];
      runs = () => ran;
      server = await serveMcp({
        tools: Object.values(createDiskTools((run) => ran.push(run), (disk) => (disk === 'sda' ? 'nothing' : 'the only copy of payroll'))),
        transport: { http: { port: 0 } },
        name: 'disks',
      });
      transport = { url: server.url! };
    } else {
      writeFileSync(file, '');
      runs = () => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as DiskToolRun);
      transport = { command: process.execPath, args: [await bundleFixture('serve-disk-tools-stdio-fixture.ts')], env: { TOOLSMITH_DISK_RUNS: file }, stderr: 'ignore' };
    }
  });
  afterAll(async () => {
    await server?.close();
    rmSync(file, { force: true });
  });

  it('a question the tool asked with editable: false is not editable on the client: an edit is refused up front and the request stays open; an approval runs the call as asked, once', async () => {
    const before = runs().length;
    const { runner, send } = agentRunner(transport, protocol, [{ calls: [{ id: 'c1', name: 'wipe', args: { disk: 'sda' } }] }, 'Wiped sda.']);
    try {
      const [request] = (await send(user('wipe sda'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('Wipe sda? It holds nothing.');
      expect(request.payloadSchema).toBeUndefined();
      expect(request.editable).toBe(false);

      const edited = await send(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdb' } }));
      expect(edited.map((event) => event.errorCode)).toEqual(['INVALID_CONFIRMATION_ANSWER']);
      expect(edited[0].errorMessage).toContain('cannot be answered with "edit"');
      expect(runs().length).toBe(before); // nothing ran, nothing was sent

      const approved = await send(confirmationResponse(request, { decision: 'approve' }));
      expect(responseOf(approved, 'c1')?.response).toEqual({ wiped: 'sda' });
      expect(runs().slice(before)).toEqual([{ tool: 'wipe', disk: 'sda', question: 'Wipe sda? It holds nothing.' }]);
    } finally {
      await runner.close();
    }
  });

  it('an edit whose call the server asks about with another question is not approved for the person: the call fails with MCP_CONFIRMATION_CHANGED and nothing runs; called again, the person is asked that question, and their approval runs it once', async () => {
    const before = runs().length;
    const { runner, send } = agentRunner(transport, protocol, [
      { calls: [{ id: 'c1', name: 'erase', args: { disk: 'sda' } }] },
      { calls: [{ id: 'c2', name: 'erase', args: { disk: 'sdb' } }] },
      'Erased sdb.',
    ]);
    try {
      const [request] = (await send(user('erase sda'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('Erase sda? It holds nothing.');
      expect(request.editable).toBeUndefined();

      const edited = await send(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdb' } }));
      const refused = responseOf(edited, 'c1')!;
      expect(refused).toMatchObject({
        isError: true,
        response: { error: { code: 'MCP_CONFIRMATION_CHANGED', details: { question: 'Erase sdb? It holds the only copy of payroll.' } }, argumentsEditedByUser: { disk: 'sdb' } },
      });
      expect(runs().length).toBe(before); // the server ran nothing: not sdb on a question nobody saw, not sda

      // The model calls again: the person sees the server's question about sdb, and approves that.
      const [asked] = edited.flatMap((event) => confirmationRequests(event));
      expect(asked.originalFunctionCall).toMatchObject({ id: 'c2', args: { disk: 'sdb' } });
      expect(asked.hint).toBe('Erase sdb? It holds the only copy of payroll.');
      const approved = await send(confirmationResponse(asked, { decision: 'approve' }));
      expect(responseOf(approved, 'c2')?.response).toEqual({ erased: 'sdb' });
      expect(runs().slice(before)).toEqual([{ tool: 'erase', disk: 'sdb', question: 'Erase sdb? It holds the only copy of payroll.' }]);
    } finally {
      await runner.close();
    }
  });
});

describe.each([['2025-11-25'], ['2026-07-28']] as const)('over %s, an approval whose call the server then asks about differently', (protocol) => {
  let server: McpServerHandle;
  const ran: DiskToolRun[] = [];
  const holds = new Map<string, string>();
  beforeAll(async () => {
    server = await serveMcp({
      tools: Object.values(createDiskTools((run) => ran.push(run), (disk) => holds.get(disk) ?? 'nothing')),
      transport: { http: { port: 0 } },
      name: 'disks',
    });
  });
  afterAll(() => server.close());

  it('is not approved for the person (MCP_CONFIRMATION_CHANGED, nothing runs), while the same question is (the call runs once)', async () => {
    holds.set('sdc', 'old logs');
    const { runner, send } = agentRunner({ url: server.url! }, protocol, [
      { calls: [{ id: 'c1', name: 'erase', args: { disk: 'sdc' } }] },
      'The disk changed; asking again.',
      { calls: [{ id: 'c2', name: 'erase', args: { disk: 'sdc' } }] },
      'Erased sdc.',
    ]);
    try {
      const [request] = (await send(user('erase sdc'))).flatMap((event) => confirmationRequests(event));
      expect(request.hint).toBe('Erase sdc? It holds old logs.');
      // While the person reads the question, the disk's contents change: the server's question is another one.
      holds.set('sdc', 'the backups');
      const answered = await send(confirmationResponse(request, { decision: 'approve' }));
      expect(responseOf(answered, 'c1')).toMatchObject({ isError: true, response: { error: { code: 'MCP_CONFIRMATION_CHANGED', details: { question: 'Erase sdc? It holds the backups.' } } } });
      expect(ran).toEqual([]);

      const [asked] = (await send(user('erase sdc anyway'))).flatMap((event) => confirmationRequests(event));
      expect(asked.hint).toBe('Erase sdc? It holds the backups.');
      const approved = await send(confirmationResponse(asked, { decision: 'approve' }));
      expect(responseOf(approved, 'c2')?.response).toEqual({ erased: 'sdc' });
      expect(ran).toEqual([{ tool: 'erase', disk: 'sdc', question: 'Erase sdc? It holds the backups.' }]);
    } finally {
      await runner.close();
    }
  });
});
