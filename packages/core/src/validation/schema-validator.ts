import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { loadAjv2020, loadAjvFormats } from './lazy-modules';

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

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The compiled validator of a schema object, compiled on first use and cached by identity, so startup
 * pays nothing for tools that are never called and each tool pays once.
 */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** ajv's errors as one readable sentence per problem. */
export function toArgumentProblems(errors: readonly ErrorObject[] | null | undefined): ArgumentProblem[] {
  if (!errors) return [];
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // anyOf/oneOf (and if/then) add an umbrella error after their branches' errors; the branches say more.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const message = describe(e);
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push({ path: e.instancePath, message, keyword: e.keyword });
  }
  return problems;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'arguments';
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${e.instancePath ? `${where}: ` : ''}missing required property "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `${e.instancePath ? `${where}: ` : ''}unknown property "${String(p.additionalProperty)}"`;
    case 'enum':
      return `${where} must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where} must be ${JSON.stringify(p.allowedValue)}`;
    case 'type':
      return `${where} must be ${String(p.type).replace(/,/g, ' or ')}`;
    default:
      return `${where} ${e.message ?? `fails "${e.keyword}"`}`;
  }
}
