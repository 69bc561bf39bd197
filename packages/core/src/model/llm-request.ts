import type { Content } from './content';
import type { FunctionDeclaration } from './function-declaration';
import type { JsonSchema } from './json-schema';
import type { ProviderTool } from './provider-tool';

/** Which tools the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/** Sampling and output settings; adapters map what their provider supports. */
export interface GenerationConfig {
  /** Sampling temperature, on the provider's scale (higher is more varied); absent: the provider's default. */
  temperature?: number;
  /** Nucleus sampling: the probability mass of the tokens sampled from (0–1); absent: the provider's default. */
  topP?: number;
  /** Most tokens one response may generate; absent: the provider's default (Anthropic: the adapter's `maxTokens`). */
  maxOutputTokens?: number;
  /** Text at which the model stops generating (not included in the answer); finish reason `stop`. */
  stopSequences?: string[];
  /** `false` asks the provider for at most one function call per response. */
  parallelToolCalls?: boolean;
}

/**
 * The JSON the final answer must be: adapters request it with their provider's native structured output
 * (OpenAI `response_format` / `text.format`, Anthropic `output_config.format`, Gemini `responseJsonSchema`),
 * converting `schema` with the same dialect rules as tool parameters. Tools may still be called before it.
 */
export interface ResponseSchema {
  /** A name for the schema (`^[a-zA-Z0-9_-]{1,64}$`), for providers that want one. */
  name: string;
  /** Canonical JSON Schema (draft 2020-12) of the answer; its root is `type: "object"`. */
  schema: JsonSchema;
  /** What the answer is, when known (a DTO's or the schema's description). */
  description?: string;
}

/** A provider-neutral request to a model. Built by the runner, translated by adapters. */
export interface LlmRequest {
  /** Overrides the adapter's configured model id for this request. */
  model?: string;
  /** The system prompt: the agent's instruction, to which request hooks may append (memories, artifact notes). Absent when empty. */
  systemInstruction?: string;
  /** The conversation so far, oldest first, as this agent sees it: other agents' turns retold as user-side context. */
  contents: Content[];
  /** Function declarations offered for this request (canonical schemas). */
  tools: FunctionDeclaration[];
  /** Provider-native tools, passed through by the matching adapter. */
  providerTools?: ProviderTool[];
  /** The agent's `toolChoice`; absent leaves the choice to the provider's default (usually `auto`). */
  toolChoice?: ToolChoice;
  /** A copy of the agent's `generationConfig`; absent uses the provider's defaults. */
  config?: GenerationConfig;
  /** The final answer must be JSON matching this schema (the agent's `outputSchema`). */
  responseSchema?: ResponseSchema;
}
