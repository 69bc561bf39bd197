import type { Content } from './content';
import type { FunctionDeclaration } from './function-declaration';
import type { ProviderTool } from './provider-tool';

/** Which tools the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/** Sampling and output settings; adapters map what their provider supports. */
export interface GenerationConfig {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  /** `false` asks the provider for at most one function call per response. */
  parallelToolCalls?: boolean;
}

/** A provider-neutral request to a model. Built by the runner, translated by adapters. */
export interface LlmRequest {
  /** Overrides the adapter's configured model id for this request. */
  model?: string;
  systemInstruction?: string;
  contents: Content[];
  /** Function declarations offered for this request (canonical schemas). */
  tools: FunctionDeclaration[];
  /** Provider-native tools, passed through by the matching adapter. */
  providerTools?: ProviderTool[];
  toolChoice?: ToolChoice;
  config?: GenerationConfig;
}
