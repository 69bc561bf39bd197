import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { toArgumentProblems, validatorFor } from '../validation/schema-validator';

/**
 * Checks `value` against `schema` with the validator tools' arguments go through (the shared ajv,
 * draft 2020-12, compiled once per schema object) and returns one readable problem per mismatch; an
 * empty list means it conforms. For adapters that must keep a promise a schema makes on the wire, such
 * as an MCP server's `structuredContent` conforming to the tool's declared `outputSchema`. A schema
 * ajv cannot compile throws ajv's error.
 *
 * @example
 * ```ts
 * const problems = schemaProblems(tool.responseSchema, response);
 * if (problems.length) return errorResult(problems.map((problem) => problem.message).join('; '));
 * ```
 */
export function schemaProblems(schema: JsonSchema, value: unknown): ArgumentProblem[] {
  const validate = validatorFor(schema);
  return validate(value) ? [] : toArgumentProblems(validate.errors, value);
}
