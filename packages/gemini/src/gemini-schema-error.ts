import { ToolsmithError } from '@toolsmith/core';

/**
 * A tool's schema uses something Gemini's OpenAPI-subset `parameters` cannot express (a union other
 * than "X or null", a recursive `$ref`, a free-form object, …). Thrown by `GeminiModel` with
 * `schemaDialect: 'openapi'` the first time the tool is offered, before any request is sent.
 * Code: `GEMINI_SCHEMA_UNSUPPORTED`.
 */
export class GeminiSchemaError extends ToolsmithError {
  constructor(
    readonly toolName: string,
    /** JSON Pointer of the offending part of the tool's canonical schema. */
    readonly schemaPath: string,
    reason: string,
    cause?: unknown,
  ) {
    super(
      'GEMINI_SCHEMA_UNSUPPORTED',
      `Tool "${toolName}" cannot be sent to Gemini as an OpenAPI schema: ${reason} (at ${schemaPath || '/'}). ` +
        "Simplify the schema, or use the default `schemaDialect: 'json-schema'`, which sends the schema as is.",
      { details: { toolName, schemaPath }, cause },
    );
  }
}
