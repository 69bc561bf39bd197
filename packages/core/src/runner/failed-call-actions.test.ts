import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { ScriptedModel } from '../testing/scripted-model';
import type { ToolContext } from '../tools/tool-context';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

async function send(runner: Runner, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text) })) events.push(event);
  return events;
}

describe('a call that fails: what it asked of the turn is dropped, its state writes kept', () => {
  it.each<[string, (ctx: ToolContext) => void]>([
    ['escalate', (ctx) => (ctx.actions.escalate = true)],
    ['transferToAgent', (ctx) => (ctx.actions.transferToAgent = 'other')],
    ['skipSummarization', (ctx) => (ctx.actions.skipSummarization = true)],
  ])('%s set before the throw: the model gets the error and answers', async (_label, act) => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'act' }] }, 'It failed, sorry.']);
    const other = new ScriptedModel(['other agent should not speak']);
    const tool = new FnTool('act', (_args, ctx) => {
      act(ctx);
      ctx.state.set('tried', true);
      throw new Error('backend down');
    });
    const agent = new LlmAgent({ name: 'main', model, tools: [tool], subAgents: [new LlmAgent({ name: 'other', model: other })] });
    const events = await send(new Runner({ appName: 'app', agent }), 'go');
    expect(events.map((event) => event.author)).toEqual(['main', 'main', 'main']);
    const [response] = events[1].functionResponses();
    expect((response.response as { error: { code: string } }).error.code).toBe('TOOL_EXECUTION_FAILED');
    expect(events[1].actions).toEqual(expect.objectContaining({ stateDelta: { tried: true } }));
    expect(events[1].actions.escalate ?? events[1].actions.transferToAgent ?? events[1].actions.skipSummarization).toBeUndefined();
    expect(events[2].text()).toBe('It failed, sorry.');
    expect(other.callCount).toBe(0);
  });
});
