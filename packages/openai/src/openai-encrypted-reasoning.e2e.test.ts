import { ProviderError } from '@toolsmith/core';
import { collect } from '@toolsmith/core/testing';
import { responsesIncludeRefusal } from './__fixtures__/openai-responses-rules';
import { useOpenAIWire } from './__fixtures__/openai-wire';
import { ask } from './__fixtures__/weather-request';

const response = (model: string) => ({
  id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model, error: null, incomplete_details: null,
  output: [{ id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
  usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
});
/** The answer to a request, streamed when it asked for a stream. */
const answer = (body: { model: string; stream?: boolean }) =>
  body.stream
    ? { sse: [{ event: 'response.completed', data: JSON.stringify({ type: 'response.completed', sequence_number: 1, response: response(body.model) }) }] }
    : { json: response(body.model) };

describe('OpenAIModel, Responses API with store: false: encrypted reasoning only where the API takes it', () => {
  const { serve, model, server } = useOpenAIWire('responses');
  const includes = () => server().requests.map((request) => (request.body as { include?: string[] }).include);

  it.each([
    ['gpt-4o', undefined],
    ['gpt-4.1-mini', undefined],
    ['gpt-5-chat-latest', undefined],
    ['ft:gpt-4o-mini-2024-07-18:org::abc', undefined],
    ['gpt-5-mini', ['reasoning.encrypted_content']],
    ['o4-mini', ['reasoning.encrypted_content']],
  ])('%s: include is %j, and the real API accepts the request', async (id, include) => {
    await serve((body) => responsesIncludeRefusal(body) ?? answer(body));
    for (const stream of [false, true]) {
      const responses = await collect(model({ model: id, store: false }).generate(ask('hi'), { stream }));
      expect(responses.at(-1)!.content?.parts[0].text).toBe('ok');
    }
    expect(includes()).toEqual([include, include]);
  });

  it('an id it does not know (an Azure deployment) that refuses include: resent once without, then never sent for it again (streamed too)', async () => {
    // The deployment serves gpt-4o: the API refuses include as it does for gpt-4o.
    await serve((body) => responsesIncludeRefusal({ ...body, model: 'gpt-4o' }) ?? answer(body));
    for (const stream of [true, false]) {
      const deployment = model({ model: 'my-chat-deployment', store: false });
      const [first] = await collect(deployment.generate(ask('hi'), { stream }));
      expect(first.content?.parts[0].text).toBe('ok');
      await collect(deployment.generate(ask('again'), { stream }));
    }
    const sent = ['reasoning.encrypted_content'];
    expect(includes()).toEqual([sent, undefined, undefined, sent, undefined, undefined]);
  });

  it('encryptedReasoning: false never sends include; true always does, and the refusal stays an error', async () => {
    await serve((body) => responsesIncludeRefusal(body) ?? answer(body));
    await collect(model({ model: 'o4-mini', store: false, encryptedReasoning: false }).generate(ask('hi')));
    const forced = collect(model({ model: 'gpt-4o', store: false, encryptedReasoning: true }).generate(ask('hi')));
    await expect(forced).rejects.toThrow(ProviderError);
    await expect(forced).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Encrypted content is not supported with this model.') });
    expect(includes()).toEqual([undefined, ['reasoning.encrypted_content']]);
  });
});
