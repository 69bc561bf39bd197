import { LlmAgent } from '../agents/llm-agent';
import { LoopAgent } from '../agents/loop-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { AgentTool } from '../agent-tool/agent-tool';
import { exitLoop } from '../builtins/exit-loop';
import { TRANSFER_TO_AGENT } from '../builtins/transfer-to-agent';
import { AgentConfigError } from '../errors/agent-config-error';
import { confirmationRequests } from '../confirmation/confirmation-requests';
import { findPendingCalls } from '../confirmation/pending-calls';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { functionTool } from '../function-tool/function-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

describe('Runner: multi-agent', () => {
  it('transfers the conversation to a sub-agent, which also answers the next message', async () => {
    const rootModel = new ScriptedModel([{ calls: [{ name: TRANSFER_TO_AGENT, args: { agentName: 'billing' } }] }]);
    const billingModel = new ScriptedModel(['Your invoice is paid.', 'Anything else about billing?']);
    const billing = new LlmAgent({ name: 'billing', description: 'Handles invoices.', model: billingModel });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [billing] });
    const runner = new Runner({ appName: 'app', agent: root });

    const events = await collect(runner, 'Is my invoice paid?');

    expect(rootModel.requests[0].tools[0].name).toBe(TRANSFER_TO_AGENT);
    expect(rootModel.requests[0].tools[0].description).toContain('billing: Handles invoices.');
    expect(events.map((e) => e.author)).toEqual(['root', 'root', 'billing']);
    expect(events[1].actions.transferToAgent).toBe('billing');
    expect(events.at(-1)!.text()).toBe('Your invoice is paid.');
    // The sub-agent sees the user's message and the root's steps retold as context.
    expect(JSON.stringify(billingModel.requests[0].contents)).toContain('Is my invoice paid?');
    expect(JSON.stringify(billingModel.requests[0].contents)).toContain('[root] called tool `transfer_to_agent`');

    const next = await collect(runner, 'Thanks');
    expect(next.map((e) => e.author)).toEqual(['billing']);
    expect(rootModel.callCount).toBe(1);
    // The sub-agent may hand the conversation back to its parent.
    expect(billingModel.requests[0].tools.map((d) => d.name)).toEqual([TRANSFER_TO_AGENT]);
  });

  it('acts on a transfer an afterModel or beforeModel callback sets on an answer with no calls, after the model event', async () => {
    for (const hook of ['afterModel', 'beforeModel'] as const) {
      const callback = ({ context }: { context: { actions: { transferToAgent?: string } } }) => {
        context.actions.transferToAgent = 'billing';
        return hook === 'beforeModel' ? { content: { role: 'model' as const, parts: [{ text: 'Handing over.' }] } } : undefined;
      };
      const billing = new LlmAgent({ name: 'billing', description: 'Billing', model: new ScriptedModel(['Your invoice is paid.']) });
      const root = new LlmAgent({ name: 'root', model: new ScriptedModel(['Handing over.']), subAgents: [billing], callbacks: { [hook]: callback } });
      const events = await collect(new Runner({ appName: 'app', agent: root }), 'My invoice?');
      expect([hook, events.map((e) => `${e.author}: ${e.text()}`)]).toEqual([hook, ['root: Handing over.', 'billing: Your invoice is paid.']]);
      expect(events[0].actions.transferToAgent).toBe('billing');
    }
  });

  it('reports a transfer to an unknown agent as an error event', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'setTarget' }] }]);
    const setTarget = new FnTool('setTarget', (_a, ctx) => {
      ctx.actions.transferToAgent = 'ghost';
      return {};
    });
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [setTarget] }) }), 'x');
    expect(events.at(-1)!.errorCode).toBe('AGENT_NOT_FOUND');
  });

  it('ends a LoopAgent when a sub-agent escalates with exitLoop', async () => {
    let drafts = 0;
    const writerModel = new ScriptedModel(() => `draft ${++drafts}`);
    const criticModel = new ScriptedModel(['needs work', 'needs work', { calls: [{ name: 'exit_loop' }] }, 'never']);
    const writer = new LlmAgent({ name: 'writer', model: writerModel, outputKey: 'draft' });
    const critic = new LlmAgent({ name: 'critic', model: criticModel, tools: [exitLoop] });
    const loop = new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 10 });
    const sessionService = new InMemorySessionService();

    const events = await collect(new Runner({ appName: 'app', agent: loop, sessionService }), 'write a poem');

    expect(drafts).toBe(3);
    expect(criticModel.callCount).toBe(3);
    expect(events.at(-1)!.actions.escalate).toBe(true);
    expect(events.map((e) => e.author).join(',')).toBe('writer,critic,writer,critic,writer,critic,critic');
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.draft).toBe('draft 3');
  });

  it('stops a LoopAgent after maxIterations', async () => {
    const model = new ScriptedModel(() => 'again');
    const loop = new LoopAgent({ name: 'loop', subAgents: [new LlmAgent({ name: 'a', model })], maxIterations: 3 });
    const events = await collect(new Runner({ appName: 'app', agent: loop }), 'go');
    expect(events).toHaveLength(3);
  });

  it('escalation inside a SequentialAgent inside a LoopAgent ends both', async () => {
    const stepModel = new ScriptedModel(() => 'step');
    const stopModel = new ScriptedModel([{ calls: [{ name: 'exit_loop' }] }]);
    const after = new ScriptedModel(() => 'after');
    const pipeline = new SequentialAgent({
      name: 'pipeline',
      subAgents: [new LlmAgent({ name: 'step', model: stepModel }), new LlmAgent({ name: 'stop', model: stopModel, tools: [exitLoop] }), new LlmAgent({ name: 'after', model: after })],
    });
    const events = await collect(new Runner({ appName: 'app', agent: new LoopAgent({ name: 'loop', subAgents: [pipeline] }) }), 'go');
    expect(events.map((e) => e.author)).toEqual(['step', 'stop', 'stop']);
    expect(after.callCount).toBe(0);
  });

  it('runs an agent as a tool: its final text is the result, state flows in (minus temp:) and back', async () => {
    const helperModel = new ScriptedModel([{ calls: [{ name: 'note' }] }, 'The summary.']);
    const note = new FnTool('note', (_a, ctx) => {
      ctx.state.set('user:lastSummary', 'The summary.');
      return { seenTopic: ctx.state.get('topic') ?? null, seenTemp: ctx.state.get('temp:scratch') ?? null };
    });
    const helper = new LlmAgent({ name: 'summarizer', description: 'Summarizes text.', model: helperModel, tools: [note] });
    const setup = new FnTool('setup', (_a, ctx) => {
      ctx.state.set('topic', 'weather');
      ctx.state.set('temp:scratch', 'x');
      return {};
    });
    const mainModel = new ScriptedModel([
      { calls: [{ name: 'setup' }] },
      { calls: [{ id: 'sum', name: 'summarizer', args: { request: 'Summarize the forecast' } }] },
      'Here it is: The summary.',
    ]);
    const sessionService = new InMemorySessionService();
    const main = new LlmAgent({ name: 'main', model: mainModel, tools: [setup, new AgentTool({ agent: helper })] });

    const events = await collect(new Runner({ appName: 'app', agent: main, sessionService }), 'hi');

    expect(mainModel.requests[0].tools.find((d) => d.name === 'summarizer')?.parameters).toMatchObject({ required: ['request'] });
    expect(helperModel.requests[0].contents[0]).toEqual({ role: 'user', parts: [{ text: 'Summarize the forecast' }] });
    const toolResponses = helperModel.requests[1].contents.at(-1)!.parts[0].functionResponse!.response;
    expect(toolResponses).toEqual({ seenTopic: 'weather', seenTemp: null });
    const result = events.find((e) => e.functionResponses()[0]?.id === 'sum')!;
    expect(result.functionResponses()[0].response).toEqual({ result: 'The summary.' });
    expect(result.actions.stateDelta).toEqual({ 'user:lastSummary': 'The summary.' });
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state['user:lastSummary']).toBe('The summary.');
  });

  it('passes structured input to an AgentTool with an input schema', async () => {
    const helperModel = new ScriptedModel(['7']);
    const tool = new AgentTool({
      agent: new LlmAgent({ name: 'adder', model: helperModel }),
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      skipSummarization: true,
    });
    const mainModel = new ScriptedModel([{ calls: [{ name: 'adder', args: { a: 3, b: 4 } }], text: undefined }]);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'main', model: mainModel, tools: [tool] }) }), 'add');
    expect(helperModel.requests[0].contents[0].parts[0].text).toBe('{"a":3,"b":4}');
    expect(events.at(-1)!.functionResponses()[0].response).toEqual({ result: '7' });
    expect(mainModel.callCount).toBe(1);
  });

  it('fails an AgentTool call whose agent needs the user\'s credential: typed error to the caller\'s model, nothing runs, nothing left pending', async () => {
    const backedUp: string[] = [];
    const backup = functionTool({
      name: 'backup',
      description: 'Backs a disk up to the cloud.',
      auth: { scheme: 'apiKey', name: 'cloud' },
      parameters: { type: 'object', properties: { disk: { type: 'string' } } },
      execute: (args: { disk?: string }) => (backedUp.push(String(args.disk)), { ok: true }),
    });
    const note = new FnTool('note', (_a, ctx) => (ctx.state.set('noted', true), { ok: true }));
    const helperModel = new ScriptedModel([{ calls: [{ id: 'n', name: 'note' }, { id: 'b', name: 'backup', args: { disk: 'sdb' } }] }, 'never reached']);
    const helper = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: helperModel, tools: [note, backup] });
    const mainModel = new ScriptedModel([{ calls: [{ id: 'j', name: 'janitor', args: { request: 'back up sdb' } }] }, 'The janitor needs a sign-in I cannot relay.']);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'main', model: mainModel, tools: [new AgentTool({ agent: helper })] }),
      sessionService,
      credentialService: new InMemoryCredentialService(),
    });

    const events = await collect(runner, 'clean up');

    expect(backedUp).toEqual([]);
    const response = events[1].functionResponses()[0];
    expect(response).toMatchObject({ id: 'j', isError: true, response: { error: { code: 'AGENT_TOOL_CONFIRMATION_UNSUPPORTED', details: { agent: 'janitor', tools: ['backup'] } } } });
    expect((response.response.error as { message: string }).message).toContain('Agent "janitor" needs the user\'s credential to call "backup"');
    expect(events.flatMap((e) => confirmationRequests(e))).toEqual([]);
    expect(events.at(-1)!.text()).toBe('The janitor needs a sign-in I cannot relay.');
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(findPendingCalls(session!.events).confirmations.size).toBe(0);
    expect(session!.state.noted).toBe(true); // what the inner agent did before the pause is kept
    expect(helperModel.callCount).toBe(1);
  });

  it.each([
    ['a number', 42],
    ['a BigInt', 10n],
    ['an object with toString', { toString: () => 'billing' }],
    ['no agent name', 'bill ing'],
  ])('ends the model call on AGENT_NOT_FOUND when a model callback sets transferToAgent to %s, nothing of the callbacks stored', async (_label, value) => {
    for (const asynchronous of [false, true]) {
      const billingModel = new ScriptedModel(['never reached']);
      const billing = new LlmAgent({ name: 'billing', model: billingModel });
      const root = new LlmAgent({
        name: 'root',
        model: new ScriptedModel(['Paid for.']),
        subAgents: [billing],
        callbacks: {
          afterModel: ({ context }) => {
            context.state.set('seen', true);
            (context.actions as { transferToAgent?: unknown }).transferToAgent = value;
            return asynchronous ? Promise.resolve(undefined) : undefined;
          },
        },
      });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'app', agent: root, sessionService });

      const events = await collect(runner, 'Pay it');

      expect(events.map((e) => e.errorCode)).toEqual(['AGENT_NOT_FOUND']);
      expect(events[0].errorMessage).toMatch(/actions\.transferToAgent must be an agent name/);
      expect(events[0].actions.transferToAgent).toBeUndefined();
      expect(billingModel.callCount).toBe(0);
      const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
      expect(session.state.seen).toBeUndefined();
      expect(session.events.map((e) => e.actions.transferToAgent)).toEqual([undefined, undefined]);
    }
  });

  it('answers a tool call that sets transferToAgent to no agent name with AGENT_NOT_FOUND, nothing of its actions merged', async () => {
    const bad = new FnTool('bad', (_a, ctx) => {
      ctx.state.set('moved', true);
      (ctx.actions as { transferToAgent?: unknown }).transferToAgent = 10n;
      return { ok: true };
    });
    const billingModel = new ScriptedModel(['never reached']);
    const rootModel = new ScriptedModel([{ calls: [{ id: 'c1', name: 'bad' }] }, 'Could not hand over.']);
    const root = new LlmAgent({ name: 'root', model: rootModel, tools: [bad], subAgents: [new LlmAgent({ name: 'billing', model: billingModel })] });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: root, sessionService });

    const events = await collect(runner, 'Move me');

    expect(events[1].functionResponses()[0]).toMatchObject({ id: 'c1', isError: true, response: { error: { code: 'AGENT_NOT_FOUND' } } });
    expect(events[1].actions.transferToAgent).toBeUndefined();
    expect(events.at(-1)!.text()).toBe('Could not hand over.');
    expect(billingModel.callCount).toBe(0);
    const session = (await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' }))!;
    expect(session.state.moved).toBeUndefined();
  });

  it('checks the tools of an AgentTool\'s agent when the Runner is built', () => {
    const model = new ScriptedModel([]);
    const broken = new LlmAgent({ name: 'helper', model, tools: [new FnTool('x', () => ({})), new FnTool('x', () => ({}))] });
    const main = new LlmAgent({ name: 'main', model, tools: [new AgentTool({ agent: broken })] });
    expect(() => new Runner({ appName: 'app', agent: main })).toThrow(/"helper" offers two tools named "x"/);
  });

  it('refuses an agent tree with duplicate names or an agent with two parents', () => {
    const model = new ScriptedModel([]);
    const child = new LlmAgent({ name: 'child', model });
    new LlmAgent({ name: 'p1', model, subAgents: [child] });
    expect(() => new LlmAgent({ name: 'p2', model, subAgents: [child] })).toThrow(AgentConfigError);
    const tree = new SequentialAgent({ name: 'root', subAgents: [new LlmAgent({ name: 'x', model, subAgents: [new LlmAgent({ name: 'root', model })] })] });
    expect(() => new Runner({ appName: 'app', agent: tree })).toThrow(/named "root"/);
  });
});
