// Span names and attribute keys, in one place. The `gen_ai.*` names follow the OpenTelemetry GenAI
// semantic conventions (agent, model and tool spans; status "Development", so they may still move: a
// rename is one line here). `toolsmith.*` names are Toolsmith's own, for what the conventions do not cover.

/** Operation names (`gen_ai.operation.name`), which also begin the span names. */
export const GenAiOperation = {
  INVOKE_AGENT: 'invoke_agent',
  CHAT: 'chat',
  EXECUTE_TOOL: 'execute_tool',
} as const;

/** Name of the runner's span around one invocation (the parent of its agents' spans). */
export const INVOCATION_SPAN_NAME = 'toolsmith.invocation';

/** Attribute keys set on Toolsmith's spans. */
export const TraceAttribute = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens',
  USAGE_REASONING_OUTPUT_TOKENS: 'gen_ai.usage.reasoning.output_tokens',
  AGENT_NAME: 'gen_ai.agent.name',
  AGENT_DESCRIPTION: 'gen_ai.agent.description',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  /** Opt-in content (see `TracingOptions.recordContent`). */
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  SYSTEM_INSTRUCTIONS: 'gen_ai.system_instructions',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  /** The Toolsmith error code of a failed operation (OpenTelemetry's general `error.type`). */
  ERROR_TYPE: 'error.type',
  APP_NAME: 'toolsmith.app.name',
  INVOCATION_ID: 'toolsmith.invocation.id',
  /** Set on an `execute_tool` span whose call waits for the user's confirmation instead of running. */
  TOOL_CONFIRMATION_REQUESTED: 'toolsmith.tool.confirmation_requested',
  /** On an `execute_tool` span the confirmation policy judged: its decision (`allow`, `deny`, `ask`, `none`). */
  TOOL_CONFIRMATION_POLICY_DECISION: 'toolsmith.tool.confirmation_policy.decision',
  /** With the decision: `enforce` (acted on) or `shadow` (only recorded). */
  TOOL_CONFIRMATION_POLICY_MODE: 'toolsmith.tool.confirmation_policy.mode',
  /** With the decision, when the policy threw: `CONFIRMATION_POLICY_FAILED`. */
  TOOL_CONFIRMATION_POLICY_ERROR: 'toolsmith.tool.confirmation_policy.error',
  /** On an `execute_tool` span whose call a remembered grant or the confirmation policy settled without asking: `grant` or `policy`. */
  TOOL_CONFIRMATION_BY: 'toolsmith.tool.confirmation.by',
  /** With `toolsmith.tool.confirmation.by` = `grant`: the grant's id. */
  TOOL_CONFIRMATION_GRANT_ID: 'toolsmith.tool.confirmation.grant_id',
  /** On an agent tool's `execute_tool` span: how many calls inside it a confirmation settled or the policy judged (its response's `innerCalls`). */
  TOOL_INNER_CALLS: 'toolsmith.tool.inner_calls',
  /** On an agent tool's `execute_tool` span: the ids of the grants calls inside it ran on, in order. */
  TOOL_INNER_CALLS_GRANT_IDS: 'toolsmith.tool.inner_calls.grant_ids',
  /** Set on the `chat` span of a compaction's summarizing call (`compaction: { strategy: 'summarize' }`). */
  COMPACTION: 'toolsmith.compaction',
  /** On a `toolsmith.provider.attempt` event: 1 for the first attempt, 2 for the first retry… */
  PROVIDER_ATTEMPT: 'toolsmith.provider.attempt',
  /** On a `toolsmith.provider.attempt` event: milliseconds until the answer (streamed: its first response) or the failure. */
  PROVIDER_LATENCY_MS: 'toolsmith.provider.latency_ms',
  /** On a failed attempt's event, with content recording only: the mapped error's message. */
  PROVIDER_ERROR_MESSAGE: 'toolsmith.provider.error.message',
  /** On a `toolsmith.provider.attempt` event, with content recording only: the request body the adapter sent, as JSON. */
  PROVIDER_REQUEST_BODY: 'toolsmith.provider.request.body',
} as const;

/** Name of the event a `chat` span gets for each attempt the adapter made (retries included). */
export const PROVIDER_ATTEMPT_EVENT = 'toolsmith.provider.attempt';

/**
 * Key in `Event.customMetadata` of a pause event (a confirmation request or a long-running call) under
 * which the paused invocation's span context is kept, as a W3C `traceparent` string: plain JSON, so it
 * survives any session store, and the resumed invocation (in any process) links its span to it.
 */
export const PAUSED_TRACEPARENT_KEY = 'toolsmith.traceparent';
