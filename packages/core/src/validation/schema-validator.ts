import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { RegExpEngine } from 'ajv/dist/types';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { loadAjv2020, loadAjvFormats } from './lazy-modules';
import { describeProblems } from './problem-text';

let sharedAjv: Ajv2020 | undefined;
let formatsAdded = false;

/** The one ajv instance (draft 2020-12), created on first use; formats are added when a schema needs them. */
export function getAjv(): Ajv2020 {
  if (!sharedAjv) {
    const Ajv = loadAjv2020();
    sharedAjv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  }
  return sharedAjv;
}

/** The ajv instance, with ajv-formats added once a schema uses `format` (checked per schema, at its one compile). */
function ajvFor(schema: JsonSchema): Ajv2020 {
  const ajv = getAjv();
  if (!formatsAdded && JSON.stringify(schema).includes('"format"')) {
    loadAjvFormats()(ajv);
    formatsAdded = true;
  }
  return ajv;
}

/** An ajv instance (as {@link getAjv}'s, formats added) for each regular-expression engine of untrusted schemas. */
const untrustedAjv = new WeakMap<RegExpEngine, Ajv2020>();

/**
 * Compiles a schema that came from elsewhere (a remote server's tool) with `regExp` as the engine of its
 * `pattern` and `patternProperties` (for example a linear-time one, so that no pattern can freeze the
 * process), and makes it what {@link validatorFor} answers for that schema object. Throws ajv's error
 * when the schema is invalid.
 */
export function compileUntrustedSchema(schema: JsonSchema, regExp: RegExpEngine): ValidateFunction {
  let ajv = untrustedAjv.get(regExp);
  if (!ajv) {
    const Ajv = loadAjv2020();
    ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, code: { regExp } });
    loadAjvFormats()(ajv);
    untrustedAjv.set(regExp, ajv);
  }
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The compiled validator of a schema object, compiled on first use and cached by identity, so startup
 * pays nothing for tools that are never called and each tool pays once.
 */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  // The schema asked for last is found without the WeakMap: a tool's calls come in a row.
  if (schema === lastSchema) return lastValidator!;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  lastSchema = schema;
  lastValidator = validate;
  return validate;
}

/** The schema {@link validatorFor} answered last, and its validator. */
let lastSchema: object | undefined;
let lastValidator: ValidateFunction | undefined;

/**
 * ajv's errors as one short problem per argument path: where, what was received and what was expected,
 * e.g. `priority: got "urgent", expected one of "low" | "medium" | "high"`. `data` is the validated value,
 * for the "got" part (left out when absent); `root` names the value itself (`arguments`, or `answer` for an
 * agent's structured output). A missing or unknown property is reported at its own path.
 */
export function toArgumentProblems(errors: readonly ErrorObject[] | null | undefined, data?: unknown, root?: string): ArgumentProblem[] {
  if (!errors) return [];
  // anyOf/oneOf (and if/then) add an umbrella error after their branches' errors; the branches say more.
  let described = errors;
  for (let i = 0; i < errors.length; i++) {
    if (isUmbrella(errors[i])) {
      described = errors.filter((error) => !isUmbrella(error));
      break;
    }
  }
  const problems = describeProblems(described, data, root);
  // Each problem once, by its full path and its text (two long keys whose cut texts read the same are
  // two problems): the usual handful compared pairwise, with no set built (and the list itself kept when
  // nothing repeats); a long list through a set.
  if (problems.length <= 8) {
    let distinct: ArgumentProblem[] | undefined;
    for (let i = 0; i < problems.length; i++) {
      let repeated = false;
      for (let j = 0; j < i && !repeated; j++) repeated = problems[j].path === problems[i].path && problems[j].message === problems[i].message;
      if (repeated) distinct ??= problems.slice(0, i);
      else distinct?.push(problems[i]);
    }
    return distinct ?? problems;
  }
  const distinct: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const problem of problems) {
    // The path's length first: a key names one path and one message, whatever characters they hold.
    const key = `${problem.path.length}:${problem.path}${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push(problem);
  }
  return distinct;
}

function isUmbrella(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if';
}
