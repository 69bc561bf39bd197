export { AnthropicModel } from './anthropic-model';
export type { AnthropicContextManagement, AnthropicModelOptions } from './anthropic-model';
export { providerTool, ANTHROPIC_PROVIDER } from './provider-tool';
export type { AnthropicServerToolConfig } from './provider-tool';
export { ANTHROPIC_ERROR_CODES } from './anthropic-error-codes';
export type { AnthropicErrorCode } from './anthropic-error-codes';
