import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import { ScriptedModel } from './scripted-model';

const request: LlmRequest = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] };

async function all(model: ScriptedModel, stream = false): Promise<LlmResponse[]> {
  const out: LlmResponse[] = [];
  for await (const r of model.generate(request, { stream })) out.push(r);
  return out;
}

describe('ScriptedModel', () => {
  it('replays text, calls and full responses in order, recording requests', async () => {
    const full: LlmResponse = { content: { role: 'model', parts: [{ text: 'full' }] }, usage: { inputTokens: 5 } };
    const model = new ScriptedModel(['hello', { text: 'calling', calls: [{ name: 't', args: { a: 1 }, id: 'x' }] }, full]);
    expect(await all(model)).toEqual([expect.objectContaining({ content: { role: 'model', parts: [{ text: 'hello' }] }, turnComplete: true })]);
    const [withCall] = await all(model);
    expect(withCall.content!.parts).toEqual([{ text: 'calling' }, { functionCall: { id: 'x', name: 't', args: { a: 1 } } }]);
    expect(withCall.finishReason?.unified).toBe('tool-calls');
    expect((await all(model))[0]).toMatchObject({ usage: { inputTokens: 5 }, turnComplete: true, partial: false });
    expect(model.requests).toEqual([request, request, request]);
  });

  it('gives calls unique ids when the script has none', async () => {
    const model = new ScriptedModel(() => ({ calls: [{ name: 't' }, { name: 't' }] }));
    const ids = (await all(model))[0].content!.parts.map((p) => p.functionCall!.id);
    expect(new Set(ids).size).toBe(2);
  });

  it('throws scripted errors and a typed error when the script runs out', async () => {
    const model = new ScriptedModel([new Error('boom')]);
    await expect(all(model)).rejects.toThrow('boom');
    await expect(all(model)).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });

  it('streams text as partial chunks, then the complete response', async () => {
    const out = await all(new ScriptedModel(['abcdefg'], { streamChunkChars: 3 }), true);
    expect(out.map((r) => [r.partial ?? false, r.content?.parts[0].text])).toEqual([[true, 'abc'], [true, 'def'], [true, 'g'], [false, 'abcdefg']]);
  });

  it('aborts while waiting out its latency', async () => {
    const model = new ScriptedModel(['late'], { latencyMs: 10_000 });
    const controller = new AbortController();
    const iterate = async () => {
      for await (const _ of model.generate(request, { signal: controller.signal })) void _;
    };
    const pending = iterate(); // runs until it waits out the latency
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'RUN_ABORTED' });
  });
});
