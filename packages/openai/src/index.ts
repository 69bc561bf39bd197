// Public API of @toolsmith/openai.
export { OpenAIModel } from './openai-model';
export type { OpenAIContextManagement, OpenAIModelOptions, OpenAIReasoning } from './openai-model';
export type { OpenAIApi } from './prepare-openai-tools';
export { providerTool, OPENAI_PROVIDER } from './provider-tool';
export type { OpenAIHostedToolConfig } from './provider-tool';
export { StrictSchemaError } from './strict-schema-error';
export { toStrictJsonSchema } from './to-strict-json-schema';
export { OPENAI_ERROR_CODES } from './openai-error-codes';
export type { OpenAIErrorCode } from './openai-error-codes';
