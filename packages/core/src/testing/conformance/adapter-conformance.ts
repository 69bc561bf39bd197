import { LlmAgent } from '../../agents/llm-agent';
import { confirmationRequests } from '../../confirmation/confirmation-requests';
import { confirmationResponse } from '../../confirmation/confirmation-response';
import { REQUEST_CONFIRMATION } from '../../confirmation/request-confirmation';
import type { ToolsmithError } from '../../errors/toolsmith-error';
import { Event } from '../../events/event';
import type { Content } from '../../model/content';
import type { CompactionOptions } from '../../context/compaction-options';
import { functionTool } from '../../function-tool/function-tool';
import type { JsonSchema } from '../../model/json-schema';
import type { Model } from '../../model/model';
import type { BaseTool } from '../../tools/base-tool';
import { Runner } from '../../runner/runner';
import { type RecordedRequest, type WireServer, startWireServer } from '../wire-server';
import { type ConformanceLedger, conformanceTools } from './conformance-tools';
import type { ConformanceTurn, WireCodec } from './wire-codec';

/** Options of {@link runAdapterConformance}. */
export interface AdapterConformanceOptions {
  /** Names the suite, e.g. `openai (chat)`. */
  name: string;
  /**
   * Creates the adapter's model pointed at the local wire server (`baseURL` is its root URL, without a
   * path). The model must not retry on its own (e.g. `maxRetries: 0` on the SDK client).
   */
  createModel(baseURL: string): Model;
  /** How this provider's wire format encodes model turns and carries tool results. */
  wire: WireCodec;
  /**
   * A tool the adapter refuses (as `createModel` configures it), with the refusal's error code: the kit
   * checks that `Model.checkTools` refuses it when the `Runner` is built, before any request. Leave it
   * out for an adapter that takes every schema.
   */
  refusedTool?: { name: string; parameters: JsonSchema; code: string };
}

/**
 * A tool whose constraints several dialects cannot carry (string length, unique items): whatever the
 * adapter sends for it, a call that breaks them must be refused by Toolsmith's validation.
 */
const CONSTRAINED_PARAMETERS: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', minLength: 3, maxLength: 8, description: 'Voucher code' },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  required: ['code', 'tags'],
  additionalProperties: false,
};

/** One scripted exchange: what the model "says" for each request, in order, or an HTTP error. */
type ScriptStep = ConformanceTurn | { status: number; message: string };

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

/**
 * Declares the adapter conformance tests (jest) for one adapter: the same scenarios for every
 * provider, driven through the real `Runner` and `LlmAgent` with the adapter talking to a local wire
 * server that plays the provider. The provider-specific part is the {@link WireCodec}. Scenarios: one
 * tool call, parallel calls, error results (a throwing tool, invalid arguments), the confirmation
 * round trip (pause, approve, run, answer), streaming, constraints the provider may not express still
 * enforced on a call, a schema the adapter refuses failing when the runner is built (`refusedTool`),
 * a provider error reaching `onModelError`, and, for codecs that know those rules of their provider
 * ({@link WireCodec.rules}), signed reasoning sent back unchanged and paused turns continued. Every
 * request is also checked against the codec's {@link WireCodec.historyProblems}, the history rules
 * the real API enforces. The schema dialect grid is `runDialectGrid`.
 *
 * @example
 * ```ts
 * // packages/openai/src/openai-conformance.e2e.test.ts
 * runAdapterConformance({
 *   name: 'openai (chat)',
 *   createModel: (baseURL) => new OpenAIModel({ model: 'gpt-4.1-mini', baseURL: `${baseURL}/v1`, apiKey: 'k', maxRetries: 0 }),
 *   wire: openAIChatCodec,
 * });
 * ```
 */
export function runAdapterConformance(options: AdapterConformanceOptions): void {
  const { wire } = options;

  describe(`${options.name}: adapter conformance`, () => {
    let server: WireServer | undefined;
    let ledger: ConformanceLedger;
    const modelErrors: ToolsmithError[] = [];
    const refusals: Error[] = [];

    /** Starts the wire server answering request i with step i, and a runner whose agent uses the adapter. */
    async function setup(script: ScriptStep[], extraTools: BaseTool[] = [], compaction?: CompactionOptions) {
      server = await startWireServer((request: RecordedRequest, index: number) => {
        const step = script[index];
        if (!step) throw new Error(`the adapter sent request #${index + 1}, but the scenario scripts only ${script.length}`);
        const earlier = script.slice(0, index).filter((answered): answered is ConformanceTurn => !('status' in answered));
        const problems = wire.historyProblems?.(request, earlier) ?? [];
        if (problems.length) {
          // Answer as the real API does (a 400 with its message), and fail the scenario.
          refusals.push(new Error(`the real API would refuse request #${index + 1}: ${problems.join('; ')}`));
          return wire.error(400, problems.join(' '));
        }
        return 'status' in step ? wire.error(step.status, step.message) : wire.reply(step, request);
      });
      ledger = { weatherCalls: [], refunds: [] };
      modelErrors.length = 0;
      const agent = new LlmAgent({
        name: 'assistant',
        model: options.createModel(server.url),
        instruction: 'You are a helpful assistant. Use the tools.',
        tools: [...conformanceTools(ledger), ...extraTools],
        callbacks: { onModelError: ({ error }) => void modelErrors.push(error) },
        compaction,
      });
      return { runner: new Runner({ appName: 'conformance', agent }), requests: server.requests };
    }

    async function send(runner: Runner, newMessage: Content, streaming = false): Promise<Event[]> {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage, streaming })) events.push(event);
      return events;
    }

    afterEach(async () => {
      const errors = [...(server?.handlerErrors ?? []), ...refusals.splice(0)];
      await server?.close();
      server = undefined;
      expect(errors).toEqual([]);
    });

    it('one tool call: declares the tools, runs the call, sends its result back, returns the answer', async () => {
      const { runner, requests } = await setup([
        { calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
        { text: 'It is 21°C in Paris.' },
      ]);
      const events = await send(runner, user('Weather in Paris?'));

      expect(requests).toHaveLength(2);
      expect(wire.toolNames(requests[0]).sort()).toEqual(['get_weather', 'ping', 'refund']);
      expect(wire.toolResults(requests[0])).toEqual([]);
      expect(ledger.weatherCalls).toEqual([{ city: 'Paris' }]);
      const results = wire.toolResults(requests[1]);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject(withKnownIdentity(results[0], 'call_1', 'get_weather'));
      expect(results[0].response).toEqual({ city: 'Paris', temperature: 21, unit: 'celsius' });
      expect(results[0].isError ?? false).toBe(false);
      const final = events.at(-1)!;
      expect(final.isFinalResponse()).toBe(true);
      expect(final.text()).toBe('It is 21°C in Paris.');
      expect(events.some((event) => event.errorCode)).toBe(false);
    });

    it('parallel calls: runs every call and sends one result per call, in call order', async () => {
      const { runner, requests } = await setup([
        {
          text: 'Checking both.',
          calls: [
            { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } },
            { id: 'call_b', name: 'get_weather', args: { city: 'Oslo', unit: 'fahrenheit' } },
            { id: 'call_c', name: 'ping', args: {} },
          ],
        },
        { text: 'Paris 21°C, Oslo 4°F, and the service is up.' },
      ]);
      const events = await send(runner, user('Paris and Oslo?'));

      expect(ledger.weatherCalls).toEqual(expect.arrayContaining([{ city: 'Paris' }, { city: 'Oslo', unit: 'fahrenheit' }]));
      const results = wire.toolResults(requests[1]);
      expect(results.map((result) => result.response)).toEqual([
        { city: 'Paris', temperature: 21, unit: 'celsius' },
        { city: 'Oslo', temperature: 4, unit: 'fahrenheit' },
        { pong: true },
      ]);
      results.forEach((result, i) =>
        expect(result).toMatchObject(withKnownIdentity(result, ['call_a', 'call_b', 'call_c'][i], ['get_weather', 'get_weather', 'ping'][i])),
      );
      expect(events.at(-1)!.text()).toBe('Paris 21°C, Oslo 4°F, and the service is up.');
    });

    it('error results: a throwing tool and invalid arguments reach the model as error results, not a crash', async () => {
      const { runner, requests } = await setup([
        {
          calls: [
            { id: 'call_x', name: 'get_weather', args: { city: 'Atlantis' } },
            { id: 'call_y', name: 'get_weather', args: { town: 'Paris' } },
          ],
        },
        { text: 'Sorry, I could not get the weather.' },
      ]);
      const events = await send(runner, user('Weather in Atlantis?'));

      const [thrown, invalid] = wire.toolResults(requests[1]);
      expect(thrown.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: expect.stringContaining('No weather station in Atlantis') } });
      expect(invalid.response).toMatchObject({ error: { code: 'INVALID_ARGUMENTS', message: expect.stringContaining('city') } });
      expect(JSON.stringify(thrown.response)).not.toContain(' at ');
      for (const result of [thrown, invalid]) expect(result.isError ?? true).toBe(true);
      expect(events.at(-1)!.text()).toBe('Sorry, I could not get the weather.');
    });

    it('confirmation round trip: pauses before the tool runs, runs it once approved, sends only the real result', async () => {
      const { runner, requests } = await setup([
        { calls: [{ id: 'call_r', name: 'refund', args: { amount: 250 } }] },
        { text: 'Refunded 250.' },
      ]);
      const paused = await send(runner, user('Refund 250, please.'));

      expect(requests).toHaveLength(1);
      expect(ledger.refunds).toEqual([]);
      const [request] = paused.flatMap((event) => confirmationRequests(event));
      expect(request.originalFunctionCall).toMatchObject({ id: 'call_r', name: 'refund', args: { amount: 250 } });

      const resumed = await send(runner, confirmationResponse(request.call, { confirmed: true }));

      expect(ledger.refunds).toEqual([250]);
      expect(requests).toHaveLength(2);
      const results = wire.toolResults(requests[1]);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject(withKnownIdentity(results[0], 'call_r', 'refund'));
      expect(results[0].response).toEqual({ refunded: 250 });
      expect(requests[1].rawBody).not.toContain(REQUEST_CONFIRMATION);
      expect(resumed.at(-1)!.text()).toBe('Refunded 250.');
    });

    it('streaming: partial text events, then complete events, for calls and answers alike', async () => {
      const { runner, requests } = await setup([
        { calls: [{ id: 'call_s', name: 'get_weather', args: { city: 'Oslo' } }] },
        { text: 'It is 4°C in Oslo right now.' },
      ]);
      const events = await send(runner, user('Weather in Oslo?'), true);

      expect(requests.map((request) => wire.isStreaming(request))).toEqual([true, true]);
      expect(ledger.weatherCalls).toEqual([{ city: 'Oslo' }]);
      const partials = events.filter((event) => event.partial);
      expect(partials.length).toBeGreaterThanOrEqual(2);
      expect(partials.map((event) => event.text()).join('')).toBe('It is 4°C in Oslo right now.');
      const final = events.at(-1)!;
      expect(final.partial).toBeFalsy();
      expect(final.text()).toBe('It is 4°C in Oslo right now.');
      expect(wire.toolResults(requests[1]).map((result) => result.response)).toEqual([{ city: 'Oslo', temperature: 4, unit: 'celsius' }]);
    });

    it('constraints the provider may not express: a call breaking them is refused by validation, the tool never runs', async () => {
      const redeemed: unknown[] = [];
      const redeem = functionTool({ name: 'redeem_voucher', description: 'Redeems a voucher.', parameters: CONSTRAINED_PARAMETERS, execute: (args) => (redeemed.push(args), { ok: true }) });
      const { runner, requests } = await setup(
        [{ calls: [{ id: 'call_v', name: 'redeem_voucher', args: { code: 'ab', tags: ['x', 'x'] } }] }, { text: 'That code is too short.' }],
        [redeem],
      );
      const events = await send(runner, user('Redeem ab'));

      expect(wire.toolNames(requests[0])).toContain('redeem_voucher');
      expect(redeemed).toEqual([]);
      const [result] = wire.toolResults(requests[1]);
      expect(result.response).toMatchObject({ error: { code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/code[\s\S]*tags|tags[\s\S]*code/) } });
      expect(events.at(-1)!.text()).toBe('That code is too short.');
    });

    it('a session that began with another provider continues: call ids made by other rules (long, dotted) go as ids this API takes, call and result alike', async () => {
      const { runner, requests } = await setup([{ text: 'Oslo is 4°C too.' }]);
      // What other providers put in a session: a Gemini call Toolsmith named (49 characters), an OpenAI-compatible
      // server's `functions.get_weather:0`, and an id of 70 characters.
      const foreign = [`toolsmith_gemini_${'0a'.repeat(16)}`, 'functions.get_weather:0', `call_${'x'.repeat(65)}`];
      const session = await runner.sessionService.createSession({ appName: 'conformance', userId: 'u1', sessionId: 's1' });
      const turn = (author: string, content: Content) => Event.create({ invocationId: 'earlier', author, content });
      await runner.sessionService.appendEvent(session, turn('user', user('Weather in Paris, Rome and Oslo?')));
      await runner.sessionService.appendEvent(session, turn('assistant', { role: 'model', parts: foreign.map((id, i) => ({ functionCall: { id, name: 'get_weather', args: { city: ['Paris', 'Rome', 'Oslo'][i] } } })) }));
      await runner.sessionService.appendEvent(session, turn('assistant', { role: 'user', parts: foreign.map((id, i) => ({ functionResponse: { id, name: 'get_weather', response: { temperature: [21, 18, 4][i] } } })) }));
      await runner.sessionService.appendEvent(session, turn('assistant', { role: 'model', parts: [{ text: 'Paris 21°C, Rome 18°C, Oslo 4°C.' }] }));
      const events = await send(runner, user('And Oslo again?'));

      expect(requests).toHaveLength(1);
      expect(wire.toolResults(requests[0]).map((result) => result.response)).toEqual([{ temperature: 21 }, { temperature: 18 }, { temperature: 4 }]);
      expect(events.some((event) => event.errorCode)).toBe(false);
      expect(events.at(-1)!.text()).toBe('Oslo is 4°C too.');
      // The session keeps the ids it had.
      const stored = await runner.sessionService.getSession({ appName: 'conformance', userId: 'u1', sessionId: 's1' });
      expect(stored!.events[1].functionCalls().map((call) => call.id)).toEqual(foreign);
    });

    it('a compacted session continues: older turns (parallel calls included) summarized, every sent call followed by its result', async () => {
      const summary = 'The user asked for the weather in Paris (21°C) and Oslo (4°C).';
      const { runner, requests } = await setup(
        [
          { calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
          { text: 'It is 21°C in Paris.' },
          { calls: [{ id: 'call_2a', name: 'get_weather', args: { city: 'Paris' } }, { id: 'call_2b', name: 'get_weather', args: { city: 'Oslo' } }] },
          { text: 'Paris 21°C, Oslo 4°C.' },
          { text: summary },
          { calls: [{ id: 'call_3', name: 'ping', args: {} }] },
          { text: 'The service is up.' },
        ],
        [],
        { strategy: 'summarize', everyTurns: 3, keepTurns: 1 },
      );
      await send(runner, user('Weather in Paris?'));
      await send(runner, user('Paris and Oslo?'));
      const third = await send(runner, user('Is the service up?'));

      expect(requests).toHaveLength(7);
      const [summarizing, continued, last] = requests.slice(4);
      expect(wire.toolNames(summarizing)).toEqual([]);
      expect(wire.toolResults(summarizing)).toEqual([]);
      expect(summarizing.rawBody).toContain('Oslo');
      for (const request of [continued, last]) {
        expect(request.rawBody).toContain(summary);
        expect(request.rawBody).not.toMatch(/call_1|call_2a|call_2b|It is 21°C in Paris/);
      }
      expect(wire.toolResults(continued)).toEqual([]);
      expect(wire.toolResults(last).map((result) => result.response)).toEqual([{ pong: true }]);
      expect(third[0].actions.compaction?.summary).toBe(summary);
      expect(third.at(-1)!.text()).toBe('The service is up.');
      expect(third.some((event) => event.errorCode)).toBe(false);
    });

    if (options.refusedTool) {
      const refused = options.refusedTool;
      it(`a schema the provider cannot take (${refused.code}) is refused when the runner is built, never at the first request`, async () => {
        server = await startWireServer(() => {
          throw new Error('no request may be sent');
        });
        const model = options.createModel(server.url);
        const tool = functionTool({ name: refused.name, description: 'Refused.', parameters: refused.parameters, execute: () => ({}) });
        const agent = new LlmAgent({ name: 'assistant', model, tools: [...conformanceTools({ weatherCalls: [], refunds: [] }), tool] });
        expect(() => new Runner({ appName: 'conformance', agent })).toThrow(expect.objectContaining({ code: refused.code, message: expect.stringContaining(refused.name) }));
        expect(server.requests).toHaveLength(0);
      });
    }

    for (const streaming of [false, true]) {
      if (wire.rules?.signedReasoning) it(`signed reasoning with tool calls goes back unchanged, in later turns too${streaming ? ' (streaming)' : ''}`, async () => {
        const { runner, requests } = await setup([
          { reasoning: 'The user wants the weather in Paris; get_weather gives it.', calls: [{ id: 'call_t', name: 'get_weather', args: { city: 'Paris' } }] },
          { reasoning: 'The tool said 21°C.', text: 'It is 21°C in Paris.' },
          { text: 'You are welcome.' },
        ]);
        const first = await send(runner, user('Weather in Paris?'), streaming);
        const second = await send(runner, user('Thanks!'), streaming);

        expect(requests).toHaveLength(3);
        expect(ledger.weatherCalls).toEqual([{ city: 'Paris' }]);
        expect(first.at(-1)!.text()).toBe('It is 21°C in Paris.');
        expect(second.at(-1)!.text()).toBe('You are welcome.');
        expect([...first, ...second].some((event) => event.errorCode)).toBe(false);
      });

      if (wire.rules?.pausedTurns) it(`a paused turn is continued with its content sent back unchanged, as one model step${streaming ? ' (streaming)' : ''}`, async () => {
        const { runner, requests } = await setup([{ paused: true, text: 'Searching the web.' }, { text: 'Paris is sunny today.' }, { text: 'Bye.' }]);
        const events = await send(runner, user('Is Paris sunny?'), streaming);
        await send(runner, user('Thanks!'), streaming);

        expect(requests).toHaveLength(3);
        const steps = events.filter((event) => event.author === 'assistant' && !event.partial);
        expect(steps).toHaveLength(1);
        expect(steps[0].text()).toContain('Searching the web.');
        expect(steps[0].text()).toContain('Paris is sunny today.');
        expect(steps[0].errorCode).toBeUndefined();
      });
    }

    it('provider errors: a 429 reaches onModelError as a RateLimitError and ends the run with an error event', async () => {
      const { runner } = await setup([{ status: 429, message: 'Rate limit exceeded, slow down.' }]);
      const events = await send(runner, user('Hi'));

      expect(modelErrors).toHaveLength(1);
      expect(modelErrors[0]).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterMs: 2000 });
      expect(modelErrors[0].message).toContain('Rate limit exceeded');
      expect(events.at(-1)!.errorCode).toBe('RATE_LIMITED');
    });
  });
}

/** The id and name a result must carry, limited to what the provider's wire format has. */
function withKnownIdentity(result: { id?: string; name?: string }, id: string, name: string): Record<string, string> {
  const expected: Record<string, string> = {};
  if (result.id !== undefined) expected.id = id;
  if (result.name !== undefined) expected.name = name;
  return expected;
}
