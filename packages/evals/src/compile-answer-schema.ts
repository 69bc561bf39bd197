import type { JsonSchema } from '@toolsmith/core';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { EvalSetError } from './eval-set-error';
import { answerSchemaInvalidMessage } from './messages';

/** The JSON Schema dialects an answer schema may declare with `$schema`, and the ajv build that checks each. */
const DIALECTS: Record<string, string> = {
  'https://json-schema.org/draft/2020-12/schema': 'ajv/dist/2020',
  'https://json-schema.org/draft/2019-09/schema': 'ajv/dist/2019',
  'http://json-schema.org/draft-07/schema': 'ajv',
};

const instances = new Map<string, Ajv>();
const validators = new WeakMap<object, ValidateFunction>();

/**
 * The compiled validator of an answer's JSON Schema, cached by identity. The dialect is its `$schema`
 * (draft 2020-12, 2019-09 or draft-07; default 2020-12); `format` is checked (ajv-formats). ajv is loaded on
 * first use, so a set with no schema expectation never pays for it.
 *
 * @throws EvalSetError `EVAL_SET_INVALID` when the schema cannot be compiled (its message says why; its
 *   `cause` is ajv's error); {@link checkEvalSet} calls this for every schema, so a set that passed the check
 *   never throws here.
 */
export function compileAnswerSchema(schema: JsonSchema): ValidateFunction {
  const validate = validators.get(schema);
  if (validate) return validate;
  try {
    return compile(schema);
  } catch (error) {
    throw new EvalSetError('EVAL_SET_INVALID', answerSchemaInvalidMessage((error as Error).message), { cause: error });
  }
}

function compile(schema: JsonSchema): ValidateFunction {
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialect = typeof declared === 'string' ? declared.replace(/#$/, '').replace(/^http:\/\/json-schema\.org\/draft\/20/, 'https://json-schema.org/draft/20') : DEFAULT;
  const module = DIALECTS[dialect];
  if (module === undefined) {
    throw new Error(`$schema ${JSON.stringify(declared)} is not supported (use draft 2020-12, 2019-09 or draft-07)`);
  }
  let ajv = instances.get(module);
  if (!ajv) {
    const AjvClass = (require(module) as { default: typeof Ajv }).default;
    // logger: false — ajv's warnings would go to the console in the middle of a report.
    ajv = new AjvClass({ allErrors: true, strict: false, validateFormats: true, logger: false });
    (require('ajv-formats') as { default: (ajv: Ajv) => unknown }).default(ajv);
    instances.set(module, ajv);
  }
  const validate = ajv.compile(schema);
  validators.set(schema, validate);
  return validate;
}

const DEFAULT = 'https://json-schema.org/draft/2020-12/schema';
