import { ToolsmithError } from '@toolsmith/core';

/**
 * A tool's schema uses something OpenAI's strict mode cannot express (`patternProperties`, an open
 * `additionalProperties` map, a tuple, `allOf` of several schemas, …). Thrown by `OpenAIModel.checkTools`
 * when the runner is built (for toolsets' tools, when they are listed), before any request is sent. Code: `STRICT_SCHEMA_UNSUPPORTED`.
 */
export class StrictSchemaError extends ToolsmithError {
  constructor(
    readonly toolName: string,
    readonly keyword: string,
    readonly schemaPath: string,
    reason: string,
  ) {
    super(
      'STRICT_SCHEMA_UNSUPPORTED',
      `Tool "${toolName}" cannot be sent to OpenAI in strict mode: ${reason} (keyword "${keyword}" at ${schemaPath || '/'}). ` +
        'Change the schema, or create the model with `new OpenAIModel({ ..., strict: false })` to send schemas non-strict ' +
        '(OpenAI then does not enforce them; Toolsmith still validates every call).',
      { details: { toolName, keyword, schemaPath } },
    );
  }
}
