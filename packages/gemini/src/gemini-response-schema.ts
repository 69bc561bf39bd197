import type { GenerateContentConfig } from '@google/genai' with { 'resolution-mode': 'import' };
import type { ResponseSchema } from '@toolsmith/core';
import type { GeminiSchemaDialect } from './prepare-gemini-tools';
import { toGeminiJsonSchema } from './to-gemini-json-schema';
import { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';

/** The fields of `GenerateContentConfig` that ask Gemini for a structured answer. */
export type GeminiResponseFields = Pick<GenerateContentConfig, 'responseMimeType' | 'responseJsonSchema' | 'responseSchema'>;

const cache = new WeakMap<ResponseSchema, Map<GeminiSchemaDialect, GeminiResponseFields>>();

/**
 * Gemini's native structured output for {@link LlmRequest.responseSchema}: `responseMimeType:
 * 'application/json'` with `responseJsonSchema` (the `json-schema` dialect, converted like tool
 * parameters by `toGeminiJsonSchema`) or `responseSchema` (the `openapi` dialect, by
 * `toGeminiOpenApiSchema`). Built once per request schema and dialect; throws `GeminiSchemaError` for
 * a schema Gemini cannot take.
 */
export function toGeminiResponseFields(responseSchema: ResponseSchema, dialect: GeminiSchemaDialect): GeminiResponseFields {
  let byDialect = cache.get(responseSchema);
  if (!byDialect) cache.set(responseSchema, (byDialect = new Map()));
  let fields = byDialect.get(dialect);
  if (!fields) {
    const { name, schema } = responseSchema;
    fields =
      dialect === 'json-schema'
        ? { responseMimeType: 'application/json', responseJsonSchema: toGeminiJsonSchema(schema, name) }
        : { responseMimeType: 'application/json', responseSchema: toGeminiOpenApiSchema(schema, name) };
    byDialect.set(dialect, fields);
  }
  return fields;
}
