import { LlmAgent } from '../agents/llm-agent';
import type { LlmResponse } from '../model/llm-response';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import type { RunBudget } from '../context/run-budget';
import { send } from './__fixtures__/confirmation-fixtures';
import { user, weatherTool } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** A model step calling getWeather, with the usage the provider reported for it. */
const callStep = (n: number, inputTokens: number, outputTokens: number): LlmResponse => ({
  content: { role: 'model', parts: [{ functionCall: { id: `c${n}`, name: 'getWeather', args: { city: `C${n}` } } }] },
  turnComplete: true,
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

function setup(budget: RunBudget) {
  const model = new ScriptedModel([callStep(1, 600, 50), callStep(2, 700, 50), callStep(3, 800, 50), 'Done.']);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'w', sessionService, budget, agent: new LlmAgent({ name: 'x', model, tools: [weatherTool()] }) });
  const stored = async () => (await sessionService.getSession({ appName: 'w', userId: 'u1', sessionId: 's1' }))!.events;
  return { model, runner, stored };
}

describe('run budget', () => {
  it('ends the run with RUN_BUDGET_EXCEEDED before the model call after the one that passed maxTotalTokens; every call made has its result', async () => {
    const { model, runner, stored } = setup({ maxTotalTokens: 1000 });
    const events = await send(runner, user('Weather?'));

    expect(model.callCount).toBe(2); // 650, then 1400 > 1000: no third call
    const last = events.at(-1)!;
    expect(last).toMatchObject({ errorCode: 'RUN_BUDGET_EXCEEDED', runUsage: { inputTokens: 1300, outputTokens: 100, totalTokens: 1400 } });
    expect(last.errorMessage).toContain('maxTotalTokens is 1000, and the run has used 1400');
    expect(last.errorDetails).toEqual({ limit: 'maxTotalTokens', max: 1000, used: 1400 });
    expect((await stored()).at(-1)!.errorDetails).toEqual({ limit: 'maxTotalTokens', max: 1000, used: 1400 });
    expect((await stored()).at(-2)!.functionResponses().map((response) => response.id)).toEqual(['c2']);
    // The budget is per run: the next message starts from zero (850 tokens, then the answer).
    const next = await send(runner, user('Go on'));
    expect(next.at(-1)!.text()).toBe('Done.');
    expect(model.callCount).toBe(4);
  });

  it('checks input and output tokens, and a cost computed per event by costOf', async () => {
    expect((await send(setup({ maxInputTokens: 1200 }).runner, user('q'))).at(-1)!.errorMessage).toContain('maxInputTokens is 1200, and the run has used 1300');
    expect((await send(setup({ maxOutputTokens: 120 }).runner, user('q'))).at(-1)!.errorMessage).toContain('maxOutputTokens is 120, and the run has used 150');
    const priced: string[] = [];
    const costOf: RunBudget['costOf'] = (usage, event) => (priced.push(event.author), (usage.inputTokens ?? 0) * 0.001);
    const events = await send(setup({ maxCost: 1, costOf }).runner, user('q'));
    expect(events.at(-1)!.errorMessage).toContain('maxCost is 1, and the run has used 1.3');
    expect(priced).toEqual(['x', 'x']);
  });

  it('lets a run under its limits finish; bad budgets fail at construction with AGENT_CONFIG_INVALID', async () => {
    expect((await send(setup({ maxTotalTokens: 10_000 }).runner, user('q'))).at(-1)!.text()).toBe('Done.');
    // A last model call that passes a limit but needs no further call ends as usual.
    const answering = new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, turnComplete: true, usage: { inputTokens: 50, outputTokens: 5, totalTokens: 55 } }]);
    const small = new Runner({ appName: 'a', budget: { maxTotalTokens: 10 }, agent: new LlmAgent({ name: 'x', model: answering }) });
    expect((await send(small, user('q'))).map((event) => event.errorCode ?? event.text())).toEqual(['Hi.']);
    const agent = new LlmAgent({ name: 'x', model: new ScriptedModel([]) });
    expect(() => new Runner({ appName: 'a', agent, budget: { maxCost: 1 } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('maxCost needs costOf') }));
    expect(() => new Runner({ appName: 'a', agent, budget: { maxTotalTokens: -1 } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('maxTotalTokens must be a finite number of at least 0, got -1') }));
  });

  it("checks the budget again after a summarizing call: its usage counts, and the agent's model is not called past a limit", async () => {
    const answer = (text: string): LlmResponse => ({ content: { role: 'model', parts: [{ text }] }, turnComplete: true, usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 } });
    const model = new ScriptedModel([answer('One.'), answer('Two.')]);
    const summary: LlmResponse = { content: { role: 'model', parts: [{ text: 'SUM' }] }, turnComplete: true, usage: { inputTokens: 500, outputTokens: 100, totalTokens: 600 } };
    const summarizer = new ScriptedModel([summary]);
    const agent = new LlmAgent({ name: 'x', model, compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } });
    const runner = new Runner({ appName: 'w', budget: { maxTotalTokens: 300 }, agent });
    expect((await send(runner, user('one'))).at(-1)!.text()).toBe('One.');
    // The second turn is summarized first (600 tokens): the run is over its limit before the agent's call.
    const second = await send(runner, user('two'));
    expect(summarizer.callCount).toBe(1);
    expect(model.callCount).toBe(1);
    expect(second.at(-2)!.actions.compaction).toBeDefined();
    expect(second.at(-1)).toMatchObject({ errorCode: 'RUN_BUDGET_EXCEEDED', errorDetails: { limit: 'maxTotalTokens', max: 300, used: 600 }, runUsage: { totalTokens: 600 } });
  });

  it('counts maxTotalTokens as input plus output when the provider reports no totalTokens', async () => {
    const noTotal = (n: number): LlmResponse => ({ ...callStep(n, 600, 50), usage: { inputTokens: 600, outputTokens: 50 } });
    const model = new ScriptedModel([noTotal(1), noTotal(2), 'Done.']);
    const runner = new Runner({ appName: 'w', budget: { maxTotalTokens: 1000 }, agent: new LlmAgent({ name: 'x', model, tools: [weatherTool()] }) });
    const last = (await send(runner, user('q'))).at(-1)!;
    expect(last.errorCode).toBe('RUN_BUDGET_EXCEEDED');
    expect(last.errorMessage).toContain('maxTotalTokens is 1000, and the run has used 1300');
    expect(model.callCount).toBe(2);
  });

  it.each([
    ['throws', () => { throw new Error('no price for model x'); }, 'its costOf threw: no price for model x (pricing an event of x)'],
    ['returns NaN', () => NaN, 'its costOf returned NaN, not a finite number of at least 0'],
    ['returns a negative number', () => -1, 'its costOf returned -1, not a finite number of at least 0'],
    ['returns a string', () => '0.1' as unknown as number, 'its costOf returned "0.1", not a finite number of at least 0'],
  ])('a costOf that %s ends the run with AGENT_CONFIG_INVALID before the next model call, and the error is stored', async (_, costOf, message) => {
    const { model, runner, stored } = setup({ maxCost: 10, costOf });
    const events = await send(runner, user('q'));
    expect(model.callCount).toBe(1);
    expect(events.at(-1)).toMatchObject({ errorCode: 'AGENT_CONFIG_INVALID', errorMessage: expect.stringContaining(message) });
    expect((await stored()).at(-1)).toMatchObject({ errorCode: 'AGENT_CONFIG_INVALID' });
  });

  it('a costOf that fails on the last model call still ends the run on its error', async () => {
    const answering = new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'Hi.' }] }, turnComplete: true, usage: { inputTokens: 5, outputTokens: 1 } }]);
    const runner = new Runner({ appName: 'a', budget: { maxCost: 1, costOf: () => NaN }, agent: new LlmAgent({ name: 'x', model: answering }) });
    expect((await send(runner, user('q'))).map((event) => event.errorCode ?? event.text())).toEqual(['Hi.', 'AGENT_CONFIG_INVALID']);
  });
});
