import type { JsonSchema, ResponseSchema } from '@toolsmith/core';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { ResponseFormatTextJSONSchemaConfig } from 'openai/resources/responses/responses';
import { toStrictJsonSchema } from './to-strict-json-schema';

const strictCache = new WeakMap<ResponseSchema, JsonSchema>();

/**
 * The schema OpenAI gets for a structured answer: in strict mode the same strict transform tool
 * parameters get (every property required, optional ones nullable: the flow's `null-for-optional`
 * repair maps those nulls back), built once per request schema; otherwise the canonical schema as is.
 */
function answerSchema(responseSchema: ResponseSchema, strict: boolean): JsonSchema {
  if (!strict) return responseSchema.schema;
  let schema = strictCache.get(responseSchema);
  if (!schema) strictCache.set(responseSchema, (schema = toStrictJsonSchema(responseSchema.name, responseSchema.schema)));
  return schema;
}

/** Chat Completions' `response_format` for {@link LlmRequest.responseSchema}: `{ type: 'json_schema', json_schema: { name, strict, schema } }`. */
export function toOpenAIChatResponseFormat(responseSchema: ResponseSchema, strict: boolean): ResponseFormatJSONSchema {
  const jsonSchema: ResponseFormatJSONSchema.JSONSchema = { name: responseSchema.name, strict, schema: answerSchema(responseSchema, strict) };
  if (responseSchema.description) jsonSchema.description = responseSchema.description;
  return { type: 'json_schema', json_schema: jsonSchema };
}

/** The Responses API's `text.format` for {@link LlmRequest.responseSchema}: `{ type: 'json_schema', name, strict, schema }`. */
export function toOpenAIResponsesTextFormat(responseSchema: ResponseSchema, strict: boolean): ResponseFormatTextJSONSchemaConfig {
  const format: ResponseFormatTextJSONSchemaConfig = { type: 'json_schema', name: responseSchema.name, strict, schema: answerSchema(responseSchema, strict) };
  if (responseSchema.description) format.description = responseSchema.description;
  return format;
}
