import type { LlmResponse } from '@toolsmith/core';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { readOpenAIResponsesStream } from './openai-responses-stream';

const response = (status: string, extra: Record<string, unknown> = {}) => ({ status, output: [], usage: null, error: null, incomplete_details: null, ...extra });

async function read(events: unknown[]): Promise<LlmResponse[]> {
  async function* source() {
    yield* events as ResponseStreamEvent[];
  }
  const out: LlmResponse[] = [];
  for await (const item of readOpenAIResponsesStream(source(), new Map())) out.push(item);
  return out;
}

describe('readOpenAIResponsesStream', () => {
  it('yields reasoning-summary and text deltas as partials and ends at response.incomplete', async () => {
    const out = await read([
      { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'r', summary: [] } },
      { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'Plan.' },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'r', summary: [{ type: 'summary_text', text: 'Plan.' }] } },
      { type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'm', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Long ans' },
      { type: 'response.incomplete', response: response('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }) },
    ]);
    expect(out.filter((r) => r.partial).map((r) => r.content?.parts[0])).toEqual([{ text: 'Plan.', thought: true }, { text: 'Long ans' }]);
    expect(out.at(-1)).toEqual({
      content: {
        role: 'model',
        parts: [
          { text: 'Plan.', thought: true },
          { providerData: { provider: 'openai', data: { type: 'reasoning', id: 'r', summary: [{ type: 'summary_text', text: 'Plan.' }], followedBy: 'm' } } },
          {
            text: 'Long ans',
            providerData: {
              provider: 'openai',
              data: { type: 'message', id: 'm', role: 'assistant', status: 'in_progress', content: [{ type: 'output_text', text: 'Long ans', annotations: [] }] },
            },
          },
        ],
      },
      turnComplete: true,
      finishReason: { unified: 'max-tokens', raw: 'incomplete:max_output_tokens' },
    });
  });

  it('throws typed errors for response.failed and error events', async () => {
    await expect(read([{ type: 'response.failed', response: response('failed', { error: { code: 'server_error', message: 'x' } }) }])).rejects.toMatchObject({
      code: 'SERVER_ERROR',
    });
    await expect(read([{ type: 'error', code: 'invalid_prompt', message: 'no', param: null }])).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('throws PROVIDER_RESPONSE_INVALID when no terminal event arrives', async () => {
    await expect(read([{ type: 'response.created', response: response('in_progress') }])).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });
});
