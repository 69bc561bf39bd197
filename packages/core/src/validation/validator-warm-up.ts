import { validatorFor } from './schema-validator';

// `undefined`: not started; a promise: running; `null`: done.
let warmUp: Promise<void> | null | undefined;

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
 * warming up; ~42 ms measured here); later compiles take about a millisecond. A run starts the warm-up
 * when its first model call with tools starts and waits for it once the model has answered: with a real
 * provider the compile overlaps the model's answer and costs the run nothing; with an instant model the
 * first tool call pays what it would have paid anyway. Because the run waits for it, no warm-up outlives
 * the run that started it. Construction and scanning do no ajv work. Each tool's own validator is still
 * compiled lazily, at its first call.
 */
export function startValidatorWarmUp(): void {
  if (warmUp !== undefined) return;
  warmUp = new Promise<void>((resolve) => {
    setImmediate(() => {
      try {
        validatorFor(WARM_UP_SCHEMA);
      } catch {
        // Only an optimisation: whatever failed here fails again, and is reported, at the first real validation.
      }
      warmUp = null;
      resolve();
    });
  });
}

/** The warm-up while it is running, so tool calls can wait for it; `undefined` before it starts or once done. */
export function pendingValidatorWarmUp(): Promise<void> | undefined {
  return warmUp ?? undefined;
}
