import type { ConformanceTurn, RecordedRequest } from '@toolsmith/core/testing';

// The rule on the history the real Gemini API enforces, as the recordings in recorded/ show it: a
// function call part goes back with the thought signature it came with (the first call of a turn
// carries it), or the API answers 400 "Function call is missing a thought_signature in functionCall
// parts". Checked by the conformance codec so the kit catches an adapter that drops or alters one.

type GeminiPart = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire parts of every shape

/** The thought signature the codec gives a turn's reasoning (base64, as Gemini sends them). */
export const signThought = (reasoning: string) => Buffer.from(`conformance-thought:${reasoning}`).toString('base64');

/** What the real Gemini API would refuse in `request`, given the turns answered before it. */
export function geminiHistoryProblems(request: RecordedRequest, earlier: readonly ConformanceTurn[]): string[] {
  const modelParts: GeminiPart[] = (request.body.contents as Array<{ role: string; parts: GeminiPart[] }>)
    .filter((content) => content.role === 'model')
    .flatMap((content) => content.parts);
  const issued = new Set(earlier.flatMap((turn) => (turn.reasoning ? [signThought(turn.reasoning)] : [])));
  const problems: string[] = [];
  for (const part of modelParts) {
    if (part.thoughtSignature !== undefined && !issued.has(part.thoughtSignature)) problems.push('Corrupted thought signature.');
  }
  for (const turn of earlier) {
    const first = turn.calls?.[0];
    if (!turn.reasoning || !first) continue;
    const part = modelParts.find((candidate) => candidate.functionCall?.name === first.name && candidate.functionCall?.id === first.id);
    if (part && part.thoughtSignature !== signThought(turn.reasoning)) {
      problems.push(`Function call is missing a thought_signature in functionCall parts (call ${first.id}).`);
    }
  }
  return problems;
}
