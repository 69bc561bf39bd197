import type { JSONOutputFormat } from '@anthropic-ai/sdk/resources/messages/messages';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { AgentConfigError, type ResponseSchema, thrownMessage } from '@toolsmith/core';

const cache = new WeakMap<ResponseSchema, JSONOutputFormat>();

/**
 * Anthropic's native structured output for {@link LlmRequest.responseSchema}: `output_config.format`
 * `{ type: 'json_schema', schema }`, the schema converted by the SDK's own `transformJSONSchema` (what
 * its `jsonSchemaOutputFormat` helper uses): `additionalProperties: false` on objects, `oneOf` as `anyOf`,
 * and the constraints structured output does not take (`minimum`, `maxLength`, unknown formats, …)
 * moved into descriptions; Toolsmith's validation of the answer against the canonical schema still
 * enforces them. Built once per request schema; `AGENT_CONFIG_INVALID` for a schema it cannot convert.
 */
export function toAnthropicOutputFormat(responseSchema: ResponseSchema): JSONOutputFormat {
  let format = cache.get(responseSchema);
  if (!format) cache.set(responseSchema, (format = { type: 'json_schema', schema: convert(responseSchema) }));
  return format;
}

function convert(responseSchema: ResponseSchema): JSONOutputFormat['schema'] {
  try {
    return transformJSONSchema(responseSchema.schema);
  } catch (thrown) {
    // The SDK throws a plain Error (e.g. for a property schema without a type): say which schema and what to do.
    const reason = thrownMessage(thrown);
    throw new AgentConfigError(
      `Anthropic's structured output cannot take the output schema "${responseSchema.name}": ${reason}. ` +
        'Fix: give every schema in it a type (or anyOf, enum or const).',
    );
  }
}
