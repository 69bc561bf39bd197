import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { LlmAgent } from '../agents/llm-agent';
import { OutputInvalidError } from '../errors/output-invalid-error';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { Event } from '../events/event';
import { errorFields } from './error-event';
import { CLASS_VALIDATOR_OPTIONS, toProblems } from '../scanning/parameter-binder';
import { repairArguments } from '../validation/argument-repair';
import { stripCodeFence } from '../validation/argument-text-repair';
import { loadClassTransformer, loadClassValidator } from '../validation/lazy-modules';
import { toArgumentProblems, validatorFor } from '../validation/schema-validator';
import { standardProblems } from '../validation/standard-schema';
import { nonFiniteNumberIn } from '../validation/non-finite-number';
import { readablePath } from '../validation/problem-text';
import type { JsonSchema } from '../model/json-schema';
import { setStateKey } from '../state/state-keys';

/** The code of an event whose answer broke the agent's output schema (see {@link checkStructuredOutput}). */
export const OUTPUT_INVALID = 'OUTPUT_INVALID';

/**
 * Checks the final answer of an agent with an `outputSchema`, in place on its event: parsed as JSON (a
 * Markdown code fence around it is tolerated), given the argument repairs when it does not validate
 * (validation/argument-repair.ts), validated with ajv against the schema and, for a DTO that
 * needs it, with class-validator; a number JSON cannot carry (`1e999` parses to `Infinity`) makes it
 * invalid too. A valid answer is set as `event.output` (and stored under `outputKey`,
 * replacing the text). An invalid one makes the event an `OUTPUT_INVALID` error whose message lists every
 * problem at its path; the flow then feeds it back to the model while retries remain (see
 * contents-builder.ts), and ends with it when none do.
 */
export async function checkStructuredOutput(agent: LlmAgent, event: Event): Promise<void> {
  const output = agent.resolvedOutputSchema;
  if (!output || event.errorCode || event.partial || event.functionCalls().length > 0) return;
  const parsed = parseAnswer(event.text());
  let problems: readonly ArgumentProblem[];
  let value: unknown;
  if ('problem' in parsed) problems = [parsed.problem];
  else {
    value = parsed.value;
    if (output.standard) {
      ({ value, problems } = await standardAnswer(output.standard, output.request.schema, value));
    } else {
      const validate = validatorFor(output.request.schema);
      let valid = validate(value);
      // The same named repairs as tool arguments: OpenAI's strict mode, for one, sends null for an optional property.
      const repaired = !valid && isPlainObject(value) ? repairArguments(value, output.request.schema) : undefined;
      if (repaired) {
        value = repaired.args;
        valid = validate(value);
      }
      problems = valid ? [] : toArgumentProblems(validate.errors, value, 'answer');
      if (problems.length === 0 && output.classValidatorDto) problems = await classValidatorProblems(output.classValidatorDto, value);
    }
  }
  // JSON.parse makes Infinity of 1e999 (and a repair of "1e999"), which ajv takes for a number: the answer
  // is plain JSON, so it is refused as any other invalid answer, before anything of it is stored.
  if (problems.length === 0) problems = finiteProblems(value);
  const stateDelta = event.actions.stateDelta;
  if (problems.length === 0) {
    event.output = value;
    if (agent.outputKey) setStateKey(stateDelta, agent.outputKey, value);
    return;
  }
  const error = new OutputInvalidError(agent.name, problems);
  Object.assign(event, errorFields(error));
  // The text is not the answer the app asked for: nothing is stored under outputKey.
  if (agent.outputKey) delete stateDelta[agent.outputKey];
}

/**
 * The answer judged by its Standard Schema's library (sync or async), with the same named repairs first
 * when it refuses; a valid answer becomes the library's output value.
 */
async function standardAnswer(schema: StandardSchemaV1, jsonSchema: JsonSchema, answer: unknown): Promise<{ value: unknown; problems: readonly ArgumentProblem[] }> {
  let result = await schema['~standard'].validate(answer);
  const repaired = result.issues && isPlainObject(answer) ? repairArguments(answer, jsonSchema) : undefined;
  if (repaired) result = await schema['~standard'].validate(repaired.args);
  if (result.issues) return { value: answer, problems: standardProblems(result.issues, '', 'answer') };
  return { value: result.value, problems: [] };
}

/** The problem of an answer holding a number JSON cannot carry (`NaN`, `±Infinity`); none when it holds none. */
function finiteProblems(value: unknown): readonly ArgumentProblem[] {
  const found = nonFiniteNumberIn(value);
  if (found === undefined) return NO_PROBLEMS;
  return [{ path: found.pointer, keyword: 'type', message: `${readablePath(found.pointer, 'answer')}: got ${found.number}, expected a finite number (JSON has no ${found.number})` }];
}

const NO_PROBLEMS: readonly ArgumentProblem[] = [];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseAnswer(text: string): { value: unknown } | { problem: ArgumentProblem } {
  if (text.trim() === '') return { problem: { path: '', keyword: 'json', message: 'answer: got no text, expected a JSON value' } };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const unfenced = stripCodeFence(text);
    if (unfenced !== undefined) {
      try {
        return { value: JSON.parse(unfenced) };
      } catch {
        // reported below, with the first error
      }
    }
    return { problem: { path: '', keyword: 'json', message: `answer: got text that is not JSON (${(error as Error).message}), expected a JSON value` } };
  }
}

async function classValidatorProblems(dto: new () => object, value: unknown): Promise<readonly ArgumentProblem[]> {
  try {
    const instance = loadClassTransformer().plainToInstance(dto, value);
    return toProblems(await loadClassValidator().validate(instance, CLASS_VALIDATOR_OPTIONS), '', 'answer');
  } catch (thrown) {
    return [{ path: '', keyword: 'classValidator', message: `answer: could not be validated (${thrown instanceof Error ? thrown.message : String(thrown)})` }];
  }
}
