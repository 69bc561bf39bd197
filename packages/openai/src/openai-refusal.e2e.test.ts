import { collect } from '@toolsmith/core/testing';
import { useOpenAIWire } from './__fixtures__/openai-wire';
import { ask } from './__fixtures__/weather-request';

// A refusal as the APIs send it: Chat's `message.refusal` (and `delta.refusal` when streamed) with finish_reason
// `stop`; a Responses `refusal` content part (`response.refusal.delta` events) with status `completed`.
const REFUSAL_TEXT = "I'm sorry, I can't help with that.";
const refused = { unified: 'content-filter', raw: 'refusal' };
const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };

describe('OpenAIModel: a refused response (Chat Completions)', () => {
  const { serve, model } = useOpenAIWire('chat');
  const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4.1-mini', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
  const chunk = (delta: unknown, finish: string | null = null) => ({ data: JSON.stringify({ ...completion, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }) });

  it('message.refusal: the refusal text is the answer, the finish reason content-filter (streamed: partials)', async () => {
    await serve((body) =>
      body.stream
        ? { sse: [chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: "I'm sorry, " }), chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), { data: '[DONE]' }] }
        : { json: { ...completion, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: REFUSAL_TEXT } }] } },
    );
    const [answer] = await collect(model().generate(ask('x')));
    expect(answer.content!.parts).toEqual([{ text: REFUSAL_TEXT }]);
    expect(answer.finishReason).toEqual(refused);
    const streamed = await collect(model().generate(ask('x'), { stream: true }));
    expect(streamed.filter((response) => response.partial).map((response) => response.content!.parts[0].text)).toEqual(["I'm sorry, ", "I can't help with that."]);
    expect(streamed.at(-1)!.content!.parts).toEqual([{ text: REFUSAL_TEXT }]);
    expect(streamed.at(-1)!.finishReason).toEqual(refused);
  });
});

describe('OpenAIModel: a refused response (Responses API)', () => {
  const { serve, model } = useOpenAIWire('responses');
  const item = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: REFUSAL_TEXT }] };
  const response = { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-4.1-mini', output: [item], usage, error: null, incomplete_details: null };
  const event = (data: Record<string, unknown>) => ({ event: data.type as string, data: JSON.stringify(data) });

  it('a refusal content part: its text is the answer, the finish reason content-filter (streamed: partials, assembled from the deltas)', async () => {
    await serve((body) =>
      body.stream
        ? {
            sse: [
              event({ type: 'response.output_item.added', output_index: 0, sequence_number: 1, item: { ...item, status: 'in_progress', content: [] } }),
              event({ type: 'response.refusal.delta', output_index: 0, content_index: 0, item_id: 'msg_1', sequence_number: 2, delta: "I'm sorry, " }),
              event({ type: 'response.refusal.delta', output_index: 0, content_index: 0, item_id: 'msg_1', sequence_number: 3, delta: "I can't help with that." }),
              event({ type: 'response.completed', sequence_number: 4, response: { ...response, output: [] } }),
            ],
          }
        : { json: response },
    );
    const [answer] = await collect(model().generate(ask('x')));
    expect(answer.content!.parts).toEqual([{ text: REFUSAL_TEXT, providerData: { provider: 'openai', data: item } }]);
    expect(answer.finishReason).toEqual(refused);
    const streamed = await collect(model().generate(ask('x'), { stream: true }));
    expect(streamed.filter((r) => r.partial).map((r) => r.content!.parts[0].text)).toEqual(["I'm sorry, ", "I can't help with that."]);
    expect(streamed.at(-1)!.content!.parts[0].text).toBe(REFUSAL_TEXT);
    expect(streamed.at(-1)!.finishReason).toEqual(refused);
  });
});
