import { validatorFor } from './schema-validator';

let warmUpScheduled = false;

/** Uses the keywords tool schemas usually have, so their code generators are warm too. */
const WARM_UP_SCHEMA = {
  type: 'object',
  description: 'warm-up',
  properties: {
    s: { type: 'string', description: 's', minLength: 1, maxLength: 9, pattern: '^a' },
    e: { type: 'string', enum: ['a', 'b'], default: 'a' },
    n: { type: 'number', minimum: 0, maximum: 9, exclusiveMinimum: -1, multipleOf: 1 },
    i: { type: ['integer', 'null'] },
    b: { type: 'boolean' },
    c: { const: 1 },
    x: { not: { const: '' } },
    a: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } }, required: ['k'], additionalProperties: false }, minItems: 1 },
  },
  required: ['s'],
  additionalProperties: false,
};

/**
 * ajv's first compile in a process costs tens of milliseconds (building the instance, code generation
 * warming up); later compiles take about a millisecond. The Runner and serveMcp pay it on a timer right
 * after they are built: startup stays fast and the cost stays off the first tool call, which cannot come
 * before a model (or a client) has answered.
 * Each tool's own validator is still compiled lazily, at its first call. The timer does not keep the
 * process alive.
 */
export function warmUpValidatorsSoon(): void {
  if (warmUpScheduled) return;
  warmUpScheduled = true;
  setTimeout(() => {
    validatorFor(WARM_UP_SCHEMA);
  }, 0).unref();
}
