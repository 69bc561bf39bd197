import { LlmAgent } from '../agents/llm-agent';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { functionTool } from '../function-tool/function-tool';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

describe('Runner: agent and runner options', () => {
  it('computes a function instruction per request from the current state', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: 'app', userId: 'u1', sessionId: 's1', state: { 'user:name': 'Ada' } });
    const model = new ScriptedModel(['Hi Ada']);
    const agent = new LlmAgent({
      name: 'root',
      model,
      instruction: (ctx) => `Greet ${ctx.state.get<string>('user:name')} (agent ${ctx.agentName}, user ${ctx.userId}).`,
      generationConfig: { temperature: 0.2 },
      toolChoice: 'auto',
    });
    await collect(new Runner({ appName: 'app', agent, sessionService }), 'hello');
    expect(model.requests[0]).toMatchObject({ systemInstruction: 'Greet Ada (agent root, user u1).', config: { temperature: 0.2 }, toolChoice: 'auto' });
  });

  it('runs function tools and enforces argumentLimits', async () => {
    const echo = functionTool<{ text: string }>({
      name: 'echo',
      description: 'Echoes text.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => text.toUpperCase(),
    });
    const model = new ScriptedModel([
      { calls: [{ name: 'echo', args: { text: 'x'.repeat(50) } }, { name: 'echo', args: { text: 'ok' } }] },
      'done',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [echo] }), argumentLimits: { maxChars: 20, maxDepth: 5 } });

    const events = await collect(runner, 'go');

    const [tooLarge, ok] = events[1].functionResponses();
    expect(tooLarge.response.error).toMatchObject({ code: 'ARGUMENTS_TOO_LARGE' });
    expect(ok.response).toEqual({ result: 'OK' });
  });

  it('refuses a malformed new message with an INVALID_MESSAGE event and stores nothing', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['never']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), sessionService });
    const run = async (newMessage: unknown) => {
      const events = [];
      for await (const e of runner.run({ userId: 'u1', sessionId: 's1', newMessage: newMessage as never })) events.push(e);
      return events;
    };
    for (const bad of [null, { role: 'model', parts: [{ text: 'x' }] }, { role: 'user', parts: [] }, { role: 'user', parts: [{ text: 42 }] }, { role: 'user', parts: [{}] }]) {
      const events = await run(bad);
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MESSAGE']);
    }
    expect(model.callCount).toBe(0);
    expect(await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' })).toBeUndefined(); // not even the session
  });
});
