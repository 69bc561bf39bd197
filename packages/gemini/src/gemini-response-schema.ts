import type { GenerateContentConfig } from '@google/genai' with { 'resolution-mode': 'import' };
import type { JsonSchema, ResponseSchema } from '@toolsmith/core';
import type { GeminiSchemaDialect } from './prepare-gemini-tools';
import { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';

/** The fields of `GenerateContentConfig` that ask Gemini for a structured answer. */
export type GeminiResponseFields = Pick<GenerateContentConfig, 'responseMimeType' | 'responseJsonSchema' | 'responseSchema'>;

const cache = new WeakMap<ResponseSchema, Map<GeminiSchemaDialect, GeminiResponseFields>>();

/**
 * Gemini's native structured output for {@link LlmRequest.responseSchema}: `responseMimeType:
 * 'application/json'` with `responseJsonSchema` (the `json-schema` dialect, sent as tool parameters are)
 * or `responseSchema` (the `openapi` dialect, converted by `toGeminiOpenApiSchema` as tool parameters
 * are). Built once per request schema and dialect; throws `GeminiSchemaError` for a schema the OpenAPI
 * subset cannot take.
 */
export function toGeminiResponseFields(responseSchema: ResponseSchema, dialect: GeminiSchemaDialect): GeminiResponseFields {
  let byDialect = cache.get(responseSchema);
  if (!byDialect) cache.set(responseSchema, (byDialect = new Map()));
  let fields = byDialect.get(dialect);
  if (!fields) {
    const { name, schema } = responseSchema;
    fields =
      dialect === 'json-schema'
        ? { responseMimeType: 'application/json', responseJsonSchema: withoutDialect(schema) }
        : { responseMimeType: 'application/json', responseSchema: toGeminiOpenApiSchema(schema, name) };
    byDialect.set(dialect, fields);
  }
  return fields;
}

/** `$schema` names the draft for validators; Gemini only documents the schema keywords themselves (as for tools). */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
