import { ToolsmithError } from '@toolsmith/core';

/**
 * A tool's schema uses something OpenAI's strict mode cannot express (`patternProperties`, an open
 * `additionalProperties` map, a tuple, `allOf` of several schemas, …). Thrown by `OpenAIModel.checkTools`
 * when the runner is built (for toolsets' tools, when they are listed), before any request is sent. Code: `STRICT_SCHEMA_UNSUPPORTED`.
 */
export class StrictSchemaError extends ToolsmithError {
  constructor(
    /** The tool whose schema is refused (for an agent's output schema: the schema's name). */
    readonly toolName: string,
    /** The JSON Schema keyword strict mode cannot express, e.g. `patternProperties`. */
    readonly keyword: string,
    /** JSON Pointer of the offending keyword's schema in the canonical schema (`''` for the root). */
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
