import type { JsonSchema } from '../model/json-schema';
import { createMetaSchemaValidator } from './meta-schema-validator.generated';
import { schemaCompileProblems } from './schema-compile-problems';

let validate: ReturnType<typeof createMetaSchemaValidator> | undefined;

/**
 * Why `schema` is not valid JSON Schema (draft 2020-12), in ajv's words (`schema/type must be equal to one
 * of the allowed values`), or `undefined` when it is valid. Uses ajv's standalone code for the
 * meta-schema, generated at build time: checking explicit schemas at startup loads neither ajv nor pays
 * its ~40 ms meta-schema compile. `strict` (default): ajv judges values by the schema, so a keyword or format
 * ajv does not know is a problem too; `false` for a Standard Schema's converted schema, which its library judges.
 */
export function metaSchemaProblems(schema: unknown, strict = true): string | undefined {
  validate ??= createMetaSchemaValidator(require);
  if (validate(schema)) {
    // Valid by the meta-schema; what ajv's compile would still refuse (a bad pattern, a dangling $ref) and,
    // when ajv judges the values (`strict`), what it would not check (an unknown keyword or format).
    const problems = schemaCompileProblems(schema as JsonSchema, strict);
    return problems.length > 0 ? problems.join(', ') : undefined;
  }
  const errors = (validate.errors ?? []) as Array<{ instancePath: string; message?: string }>;
  // Each problem once: the meta-schema reaches one place by several of its own paths (a draft-07 tuple's
  // `items: [...]` is refused once per path), and ajv reports each.
  return [...new Set(errors.map((error) => `schema${error.instancePath} ${error.message ?? 'is invalid'}`))].join(', ');
}
