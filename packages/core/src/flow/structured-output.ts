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
import type { ArgumentLimits } from '../validation/argument-parser';
import { type JsonCopyRules, JsonBreach, copyJson, isPlainData, jsonWalk } from '../validation/json-copy';
import { readablePath } from '../validation/problem-text';
import type { JsonSchema } from '../model/json-schema';
import { setStateKey } from '../state/state-keys';
import { thrownMessage } from '../errors/thrown-message';

/** The code of an event whose answer broke the agent's output schema (see {@link checkStructuredOutput}). */
export const OUTPUT_INVALID = 'OUTPUT_INVALID';

/**
 * Checks the final answer of an agent with an `outputSchema`, in place on its event: parsed as JSON (a
 * Markdown code fence around it is tolerated), given the argument repairs when it does not validate
 * (validation/argument-repair.ts), validated with ajv against the schema and, for a DTO that
 * needs it, with class-validator; then the valid value (a Standard Schema's output value, which its
 * transforms may have made anything) is copied as plain JSON data, nested at most `limits.maxDepth`
 * levels, and anything else in it (a number JSON cannot carry, as `1e999` parses to `Infinity`, a BigInt,
 * a `Date` or another class instance, a function, a cycle) makes it invalid too. The copy is set as
 * `event.output` (and stored under `outputKey`, replacing the text). An invalid one makes the event an `OUTPUT_INVALID` error whose message lists every
 * problem at its path; the flow then feeds it back to the model while retries remain (see
 * contents-builder.ts), and ends with it when none do.
 */
export async function checkStructuredOutput(agent: LlmAgent, event: Event, limits: ArgumentLimits): Promise<void> {
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
  // JSON.parse makes Infinity of 1e999 (and a repair of "1e999"), which ajv takes for a number, and a
  // Standard Schema's transform may return anything: the answer is stored as plain JSON, so what is not is
  // refused as any other invalid answer, before anything of it is stored; what is stored is the copy.
  if (problems.length === 0) {
    const copied = plainCopy(value, limits);
    if (copied instanceof JsonBreach || copied === undefined || copied instanceof Unreadable) problems = plainProblems(value, copied, limits);
    else value = copied;
  }
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
 * when it refuses; a valid answer becomes the library's output value. A library that throws makes the
 * answer invalid (`answer: could not be validated (…)`).
 */
async function standardAnswer(schema: StandardSchemaV1, jsonSchema: JsonSchema, answer: unknown): Promise<{ value: unknown; problems: readonly ArgumentProblem[] }> {
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await schema['~standard'].validate(answer);
    const repaired = result.issues && isPlainObject(answer) ? repairArguments(answer, jsonSchema) : undefined;
    if (repaired) result = await schema['~standard'].validate(repaired.args);
  } catch (thrown) {
    // A library that throws (zod does on a transform's revoked Proxy) judged nothing: as class-validator's throw.
    return { value: answer, problems: [{ path: '', keyword: 'standardSchema', message: `answer: could not be validated (${thrownMessage(thrown)})` }] };
  }
  if (result.issues) return { value: answer, problems: standardProblems(result.issues, '', 'answer') };
  return { value: result.value, problems: [] };
}

/** The answer is stored as plain data: an object made by `{}`, JSON.parse or `Object.create(null)`, arrays, strings, finite numbers, booleans, `null`. */
const OUTPUT_RULES: JsonCopyRules = { values: 'plain' };

/** What {@link plainCopy} gives for a value whose reading threw (a revoked Proxy, a getter that throws): why. */
class Unreadable {
  constructor(readonly why: string) {}
}

function unreadable(thrown: unknown): Unreadable {
  return new Unreadable(thrownMessage(thrown));
}

/** `value` copied by the output rules (at `depth`, nested at most `limits.maxDepth` levels); or the breach, or {@link Unreadable}. */
function plainCopy(value: unknown, limits: ArgumentLimits, depth = 1): unknown {
  try {
    return copyJson(value, OUTPUT_RULES, jsonWalk(limits.maxDepth, Infinity), depth);
  } catch (thrown) {
    return unreadable(thrown);
  }
}

/**
 * The problem of an answer that is not plain JSON data (`copied` is what {@link plainCopy} gave for it), at
 * the JSON pointer of the first bad value: found by copying each member of the plain objects and arrays
 * on its way again (an invalid answer only), down to the first member that is bad itself.
 */
function plainProblems(value: unknown, copied: unknown, limits: ArgumentLimits): readonly ArgumentProblem[] {
  if (copied instanceof JsonBreach && copied.kind === 'depth') {
    return [{ path: '', keyword: 'maxDepth', message: `answer: nested deeper than ${limits.maxDepth} levels, or has a cycle, expected plain JSON data at most ${limits.maxDepth} levels deep` }];
  }
  let pointer = '';
  let bad = copied;
  let current = value;
  let depth = 1;
  // Down the plain objects and arrays: the first member whose copy fails holds the bad value (or is it).
  for (;;) {
    let plain: boolean;
    try {
      plain = typeof current === 'object' && current !== null && isPlainData(current);
    } catch {
      plain = false;
    }
    if (!plain) break;
    const found = firstBadMember(current as object, limits, depth);
    if (found === undefined) break; // read differently the second time: the place found so far
    pointer += `/${found.key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    ({ bad, member: current } = found);
    depth++;
  }
  const where = readablePath(pointer, 'answer');
  if (typeof current === 'number') {
    return [{ path: pointer, keyword: 'type', message: `${where}: got ${current}, expected a finite number (JSON has no ${current})` }];
  }
  const what =
    bad === undefined
      ? 'got nothing'
      : bad instanceof Unreadable
        ? `could not be read (${bad.why})`
        : typeof current === 'object' && current !== null
          ? `got ${instanceName(current)}`
          : `got a value that ${bad instanceof JsonBreach && bad.what !== '' ? bad.what : 'is not plain JSON data'}`;
  return [{ path: pointer, keyword: 'type', message: `${where}: ${what}, expected plain JSON data (objects, arrays, strings, finite numbers, booleans, null)` }];
}

/** `a Date`, `a Map`, `an instance of Forecast`: what a class instance is, for a problem. */
function instanceName(value: object): string {
  let name: unknown;
  try {
    name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  } catch {
    return 'an object that could not be read';
  }
  if (typeof name !== 'string' || name === '') return 'an instance of a class';
  return name === 'Date' || name === 'Map' || name === 'Set' || name === 'RegExp' || name === 'Promise' ? `a ${name}` : `an instance of ${name.slice(0, 60)}`;
}

/** The first member of `container` (a plain object or array at `depth`) that cannot be copied (or read), with what its copy gave; `undefined` when none. */
function firstBadMember(container: object, limits: ArgumentLimits, depth: number): { key: string; member: unknown; bad: unknown } | undefined {
  const keys: string[] = [];
  try {
    if (Array.isArray(container)) for (let index = 0; index < container.length; index++) keys.push(String(index));
    else for (const key in container) if (Object.prototype.hasOwnProperty.call(container, key)) keys.push(key);
  } catch {
    return undefined;
  }
  for (const key of keys) {
    let member: unknown;
    try {
      member = (container as Record<string, unknown>)[key];
    } catch (thrown) {
      return { key, member: undefined, bad: unreadable(thrown) };
    }
    const bad = plainCopy(member, limits, depth + 1);
    if (bad instanceof JsonBreach || bad instanceof Unreadable) return { key, member, bad };
  }
  return undefined;
}

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
    return [{ path: '', keyword: 'classValidator', message: `answer: could not be validated (${thrownMessage(thrown)})` }];
  }
}
