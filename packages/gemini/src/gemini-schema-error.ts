import { ToolsmithError } from '@toolsmith/core';
import type { GeminiSchemaDialect } from './prepare-gemini-tools';

/**
 * A tool's schema uses something Gemini cannot take: with `schemaDialect: 'openapi'`, what the
 * OpenAPI-subset `parameters` cannot express (a union other than "X or null", a recursive `$ref`, a
 * free-form object, a parameter name it refuses, …); with `'json-schema'`, what is outside the JSON
 * Schema Gemini documents (a recursive reference under a required property, `allOf` of several
 * shapes). Thrown by `GeminiModel.checkTools` when the runner is built, before any request is sent.
 * Code: `GEMINI_SCHEMA_UNSUPPORTED`.
 */
export class GeminiSchemaError extends ToolsmithError {
  constructor(
    /** The tool whose schema Gemini cannot take. */
    readonly toolName: string,
    /** JSON Pointer of the offending part of the tool's canonical schema. */
    readonly schemaPath: string,
    reason: string,
    cause?: unknown,
    /** The dialect the schema could not be sent in. */
    readonly dialect: GeminiSchemaDialect = 'openapi',
  ) {
    super(
      'GEMINI_SCHEMA_UNSUPPORTED',
      dialect === 'openapi'
        ? `Tool "${toolName}" cannot be sent to Gemini as an OpenAPI schema: ${reason} (at ${schemaPath || '/'}). ` +
            "Fix: simplify the schema, or use the default `schemaDialect: 'json-schema'`, which takes more of JSON Schema."
        : `Tool "${toolName}" cannot be sent to Gemini as JSON Schema: ${reason} (at ${schemaPath || '/'}). Fix: change the schema as said.`,
      { details: { toolName, schemaPath, dialect }, cause },
    );
  }
}
