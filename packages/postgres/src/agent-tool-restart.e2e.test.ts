import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentTool, LlmAgent, Runner, confirmationRequests, confirmationResponse, type ConfirmationPolicySetting, type Content, type Event, functionTool } from '@toolsmith/core';
import { ScriptedModel, collect, wipeTool } from '@toolsmith/core/testing';
import { PostgresGrantService } from './postgres-grant-service';
import { PostgresSessionService } from './postgres-session-service';

// An AgentTool's inner approval across a restart on PGlite on disk: the first "process" pauses with the
// inner request relayed and closes its store; a second one, with new agents, tools and store on the same
// data directory, takes the answer: the inner agent resumes where it stopped and the outer run finishes.

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

/** One "process": its own agents, tools, models and store, on the data directory. */
function startProcess(
  dataDir: string,
  innerScript: ConstructorParameters<typeof ScriptedModel>[0],
  outerScript: ConstructorParameters<typeof ScriptedModel>[0],
  confirmationPolicy?: ConfirmationPolicySetting,
) {
  const wiped: string[] = [];
  const noted: string[] = [];
  const note = functionTool<Record<string, never>>({
    name: 'note',
    description: 'Notes the job.',
    execute: (_args, ctx) => {
      noted.push('job');
      ctx.state.set('noted', true);
      return { noted: true };
    },
  });
  const wipe = wipeTool(wiped);
  const innerModel = new ScriptedModel(innerScript);
  const outerModel = new ScriptedModel(outerScript);
  const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: innerModel, tools: [note, wipe] });
  const sessionService = PostgresSessionService.embedded({ dataDir });
  const grantService = new PostgresGrantService({ database: sessionService.database });
  const runner = new Runner({ appName: 'ops', agent: new LlmAgent({ name: 'main', model: outerModel, tools: [new AgentTool({ agent: janitor })] }), sessionService, grantService, confirmationPolicy });
  const run = (newMessage: Content) => collect(runner.run({ userId: 'u1', sessionId: 's1', newMessage }));
  return { wiped, noted, innerModel, outerModel, sessionService, grantService, run };
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'toolsmith-agent-tool-restart-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

// Bounds, not waits: each "process" starts PGlite (WASM) cold, slow on a busy machine.
jest.setTimeout(120_000);

it('an edit of the inner call, answered after a restart: the inner agent resumes with the edited call, its earlier work kept, and the outer run finishes; a second answer is refused', async () => {
  const first = startProcess(dataDir, [{ calls: [{ id: 'n', name: 'note' }, { id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }], [{ calls: [{ id: 'j', name: 'janitor', args: { request: 'wipe sdb' } }] }]);
  const paused = await first.run(user('clean up'));
  const [request] = paused.flatMap((e) => confirmationRequests(e));
  expect(request).toMatchObject({ hint: 'Wipe sdb?', relayed: { agent: 'janitor', call: { id: 'w', name: 'wipe', args: { disk: 'sdb' } } }, askedBy: 'runner' });
  expect(first.noted).toEqual(['job']);
  expect(first.wiped).toEqual([]);
  await first.sessionService.close();

  // The second "process": nothing in memory from the first, only the data directory.
  const second = startProcess(dataDir, ['Janitor done.'], ['All clean.']);
  try {
    const resumed = await second.run(confirmationResponse(request, { decision: 'edit', args: { disk: 'sdc' } }));
    expect(second.wiped).toEqual(['sdc']);
    expect(second.noted).toEqual([]); // the inner agent resumed at its waiting call: what ran before is not run again
    // The inner model saw its own call, the note's response and the edited wipe's response: it resumed where it stopped.
    expect(second.innerModel.requests).toHaveLength(1);
    const innerSeen = second.innerModel.requests[0].contents;
    expect(innerSeen.at(-2)).toEqual({ role: 'model', parts: [{ functionCall: { id: 'n', name: 'note', args: {} } }, { functionCall: { id: 'w', name: 'wipe', args: { disk: 'sdb' } } }] });
    expect(innerSeen.at(-1)!.parts.map((p) => p.functionResponse?.response)).toEqual([{ noted: true }, { result: { wiped: 'sdc' }, argumentsEditedByUser: { disk: 'sdc' } }]);
    expect(resumed.flatMap((e) => e.functionResponses())).toEqual([
      {
        id: 'j',
        name: 'janitor',
        response: { result: 'Janitor done.' },
        confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdc' } },
        innerCalls: [{ agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'edit', by: 'user', args: { disk: 'sdc' } } }],
      },
    ]);
    expect(resumed.at(-1)!.text()).toBe('All clean.');
    const stored = (await second.sessionService.getSession({ appName: 'ops', userId: 'u1', sessionId: 's1' }))!;
    expect(stored.state).toMatchObject({ noted: true });

    const again = await second.run(confirmationResponse(request, { decision: 'approve' }));
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(second.wiped).toEqual(['sdc']);
  } finally {
    await second.sessionService.close();
  }
});

it('the outer session keeps, across restarts, which inner calls ran on a grant or a policy verdict: an approval with remember, then a granted call', async () => {
  // A shadow policy that would allow everything: its verdicts are recorded, nothing acts on them.
  const shadow: ConfirmationPolicySetting = { decide: () => ({ decision: 'allow' }), mode: 'shadow' };
  const first = startProcess(dataDir, [{ calls: [{ id: 'n', name: 'note' }, { id: 'w', name: 'wipe', args: { disk: 'sdb' } }] }], [{ calls: [{ id: 'j', name: 'janitor', args: { request: 'wipe sdb' } }] }], shadow);
  const [request] = (await first.run(user('clean up'))).flatMap((e) => confirmationRequests(e));
  await first.sessionService.close();

  const second = startProcess(dataDir, ['Janitor done.', { calls: [{ id: 'w2', name: 'wipe', args: { disk: 'sdc' } }] }, 'Janitor done again.'], ['All clean.', { calls: [{ id: 'j2', name: 'janitor', args: { request: 'wipe sdc' } }] }, 'Clean again.'], shadow);
  let grantId = '';
  try {
    await second.run(confirmationResponse(request, { decision: 'approve', remember: { scope: 'session' } }));
    [{ id: grantId }] = await second.grantService.listGrants({ appName: 'ops' });
    const next = await second.run(user('and sdc'));
    expect(next.flatMap((e) => confirmationRequests(e))).toEqual([]);
    expect(second.wiped).toEqual(['sdb', 'sdc']);
  } finally {
    await second.sessionService.close();
  }

  // A third "process" reads what the store kept.
  const third = startProcess(dataDir, [], []);
  try {
    const events = (await third.sessionService.getSession({ appName: 'ops', userId: 'u1', sessionId: 's1' }))!.events as Event[];
    const outer = (id: string) => events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse?.id === id)!.functionResponse!;
    const shadowAllow = { mode: 'shadow', decision: 'allow' };
    expect(outer('j').innerCalls).toEqual([
      { agent: 'janitor', call: { id: 'n', name: 'note' }, policy: shadowAllow },
      { agent: 'janitor', call: { id: 'w', name: 'wipe' }, confirmation: { decision: 'approve', by: 'user', grantId }, policy: shadowAllow },
    ]);
    expect(outer('j2').innerCalls).toEqual([{ agent: 'janitor', call: { id: 'w2', name: 'wipe' }, confirmation: { decision: 'approve', by: 'grant', grantId }, policy: shadowAllow }]);
  } finally {
    await third.sessionService.close();
  }
});
