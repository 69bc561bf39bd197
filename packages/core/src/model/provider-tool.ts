/**
 * A tool that runs at the provider (Gemini Google Search, OpenAI hosted tools, Anthropic server tools).
 * Adapters create these with their own `providerTool(...)` helper and pass `config` through untouched;
 * the runner refuses, at startup, an agent whose model belongs to another provider.
 */
export interface ProviderTool {
  /** Tells provider tools apart from function tools in an agent's `tools` (see {@link isProviderTool}). */
  readonly kind: 'provider-tool';
  /** The provider it belongs to; compared with {@link Model.provider}. */
  readonly provider: string;
  /** A short name for messages, e.g. `google_search`. */
  readonly name: string;
  /** The provider's own tool object, sent as is. */
  readonly config: Record<string, unknown>;
}

/** True when `value` is a {@link ProviderTool}. */
export function isProviderTool(value: unknown): value is ProviderTool {
  return typeof value === 'object' && value !== null && (value as ProviderTool).kind === 'provider-tool';
}
