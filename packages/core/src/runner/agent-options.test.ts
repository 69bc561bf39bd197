import { LlmAgent } from '../agents/llm-agent';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { functionTool } from '../tools/function-tool';
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
});
