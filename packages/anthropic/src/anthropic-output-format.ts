import type { JSONOutputFormat } from '@anthropic-ai/sdk/resources/messages/messages';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { ResponseSchema } from '@toolsmith/core';

const cache = new WeakMap<ResponseSchema, JSONOutputFormat>();

/**
 * Anthropic's native structured output for {@link LlmRequest.responseSchema}: `output_config.format`
 * `{ type: 'json_schema', schema }`, the schema converted by the SDK's own `transformJSONSchema` (what
 * its `jsonSchemaOutputFormat` helper uses): `additionalProperties: false` on objects, `oneOf` as `anyOf`,
 * and the constraints structured output does not take (`minimum`, `maxLength`, unknown formats, …)
 * moved into descriptions; Toolsmith's validation of the answer against the canonical schema still
 * enforces them. Built once per request schema.
 */
export function toAnthropicOutputFormat(responseSchema: ResponseSchema): JSONOutputFormat {
  let format = cache.get(responseSchema);
  if (!format) cache.set(responseSchema, (format = { type: 'json_schema', schema: transformJSONSchema(responseSchema.schema) }));
  return format;
}
