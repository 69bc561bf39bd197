import type { JsonSchema } from '../model/json-schema';
import { validatorFor } from '../validation/schema-validator';
import { isRecord } from './request-confirmation';
import { thrownMessage } from '../errors/thrown-message';

/**
 * A question for the person carried by an intermediate update of a long-running call
 * (`longRunningResponse({ …, willContinue: true, question })`): the runner stores the update and pauses
 * on a confirmation request for the call (`askedBy: "tool"`), which is answered like any. The answer
 * runs the tool again with `ctx.toolConfirmation` (its `update` is this update).
 */
export interface LongRunningQuestion {
  /** Shown to the person: what is asked. */
  hint?: string;
  /** Structured data shown beside the hint. */
  payload?: unknown;
  /** A form (JSON Schema) an approving answer's `payload` must match. */
  payloadSchema?: JsonSchema;
}

/** Why an update's `question` cannot be asked, or `undefined` when it can (see {@link LongRunningQuestion}). */
export function longRunningQuestionProblem(question: unknown, willContinue: unknown): string | undefined {
  if (!isRecord(question)) return '"question" must be an object ({ hint?, payload?, payloadSchema? })';
  if (willContinue !== true) return 'a "question" needs "willContinue": true (a final response ends the call, so no answer could reach the tool)';
  const unknownKeys = Object.keys(question).filter((key) => key !== 'hint' && key !== 'payload' && key !== 'payloadSchema');
  if (unknownKeys.length > 0) return `"question" has unknown keys (${unknownKeys.join(', ')}); it takes hint, payload and payloadSchema`;
  if (question.hint !== undefined && typeof question.hint !== 'string') return '"question.hint" must be text';
  if (question.payloadSchema !== undefined) {
    if (!isRecord(question.payloadSchema)) return '"question.payloadSchema" must be a JSON Schema object';
    try {
      validatorFor(question.payloadSchema as JsonSchema);
    } catch (error) {
      return `"question.payloadSchema" is not a usable JSON Schema (${thrownMessage(error)})`;
    }
  }
  return undefined;
}
