import type { LlmResponse } from '@toolsmith/core';
import { assembleGeminiStream } from './gemini-stream';
import type { GeminiResponseData } from './map-gemini-response';

async function run(chunks: GeminiResponseData[]): Promise<LlmResponse[]> {
  async function* source() {
    yield* chunks;
  }
  const out: LlmResponse[] = [];
  for await (const response of assembleGeminiStream(source())) out.push(response);
  return out;
}

const chunk = (parts: unknown[], finishReason?: string): GeminiResponseData =>
  ({ responseId: 'r', candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }] }) as GeminiResponseData;

describe('assembleGeminiStream', () => {
  it('joins text deltas of the same kind but never across a signature', async () => {
    const responses = await run([
      chunk([{ text: 'Let me ', thought: true }]),
      chunk([{ text: 'think.', thought: true, thoughtSignature: 'c2ln' }]),
      chunk([{ text: 'Answer ' }]),
      chunk([{ text: 'here.' }], 'STOP'),
    ]);
    expect(responses.filter((r) => r.partial).map((r) => r.content!.parts[0])).toEqual([
      { text: 'Let me ', thought: true },
      { text: 'think.', thought: true },
      { text: 'Answer ' },
      { text: 'here.' },
    ]);
    expect(responses[responses.length - 1].content!.parts).toEqual([
      { text: 'Let me ', thought: true },
      { text: 'think.', thought: true, thoughtSignature: 'c2ln', thoughtSignatureProvider: 'gemini' },
      { text: 'Answer here.' },
    ]);
  });

  it('keeps streamed code execution parts in order, between the text around them', async () => {
    const responses = await run([
      chunk([{ text: 'Computing. ' }]),
      chunk([{ executableCode: { language: 'PYTHON', code: 'print(2)' } }]),
      chunk([{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } }]),
      chunk([{ text: 'It is 2.' }], 'STOP'),
    ]);
    expect(responses.filter((r) => r.partial)).toHaveLength(2);
    expect(responses[responses.length - 1].content!.parts).toEqual([
      { text: 'Computing. ' },
      { providerData: { provider: 'gemini', data: { executableCode: { language: 'PYTHON', code: 'print(2)' } } } },
      { providerData: { provider: 'gemini', data: { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } } } },
      { text: 'It is 2.' },
    ]);
  });

  it('refuses a stream that ends without a finish reason', async () => {
    await expect(run([chunk([{ text: 'Half' }])])).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });
});
