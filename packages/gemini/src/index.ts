export { GeminiModel } from './gemini-model';
export type { GeminiModelOptions } from './gemini-model';
export type { GeminiSchemaDialect } from './prepare-gemini-tools';
export { providerTool, GEMINI_PROVIDER } from './provider-tool';
export type { GeminiBuiltInTool } from './provider-tool';
export { GeminiToolNameError } from './gemini-tool-name-error';
export { GeminiSchemaError } from './gemini-schema-error';
export { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';
