import type { LlmRequest, LlmResponse, Model } from '@toolsmith/core';
import { stripFence } from './strip-fence';

/** The judge model's system instruction: it is sent the criterion, the user's message and the answer. */
export const JUDGE_PROMPT =
  'You grade an AI agent\'s answer against one criterion. Reply with only a JSON object, ' +
  '{"pass": true or false, "reason": "one sentence"}: pass is true when the answer meets the criterion.';

/** The judge's verdict on one answer. */
export interface JudgeVerdict {
  /** The answer meets the criterion. */
  pass: boolean;
  /** The judge's reason (or why its reply could not be read). */
  reason: string;
}

/**
 * Asks `model` whether `answer` meets `criterion`: one request with no tools, {@link JUDGE_PROMPT} as its
 * system instruction, and the criterion, the user's message and the answer as the user's text. A reply
 * that is not `{"pass": boolean, "reason": string}` (a missing reason included) is a failed verdict saying so; a failing model call throws its error.
 */
export async function judgeAnswer(model: Model, input: { criterion: string; question: string; answer: string; signal?: AbortSignal }): Promise<JudgeVerdict> {
  const request: LlmRequest = {
    systemInstruction: JUDGE_PROMPT,
    contents: [
      {
        role: 'user',
        parts: [{ text: `Criterion: ${input.criterion}\n\nThe user said:\n${input.question}\n\nThe agent answered:\n${input.answer}` }],
      },
    ],
    tools: [],
  };
  let last: LlmResponse | undefined;
  for await (const response of model.generate(request, input.signal ? { signal: input.signal } : {})) if (!response.partial) last = response;
  const reply = (last?.content?.parts ?? [])
    .filter((part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join('');
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(reply));
  } catch {
    parsed = undefined;
  }
  const verdict = parsed as { pass?: unknown; reason?: unknown } | undefined;
  if (typeof verdict !== 'object' || verdict === null || typeof verdict.pass !== 'boolean' || typeof verdict.reason !== 'string') {
    return { pass: false, reason: `the judge's reply is not {"pass": true|false, "reason": …}: ${JSON.stringify(reply)}` };
  }
  return { pass: verdict.pass, reason: verdict.reason };
}
