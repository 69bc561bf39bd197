export { AnthropicModel } from './anthropic-model';
export type { AnthropicModelOptions } from './anthropic-model';
export { providerTool, ANTHROPIC_PROVIDER } from './provider-tool';
export type { AnthropicServerToolConfig } from './provider-tool';
