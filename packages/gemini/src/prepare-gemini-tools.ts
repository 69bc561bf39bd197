import { FunctionCallingConfigMode } from './google-genai';
import type { FunctionDeclaration as GeminiFunctionDeclaration, Tool, ToolConfig } from '@google/genai' with { 'resolution-mode': 'import' };
import type { FunctionDeclaration, LlmRequest } from '@toolsmith/core';
import { selectProviderTools } from '@toolsmith/core/adapter-kit';
import { checkGeminiTools, geminiJsonSchemaFor, geminiOpenApiSchemaFor, hasParameters } from './check-gemini-tools';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * How function parameters are described to Gemini: `json-schema` sends the canonical JSON Schema as
 * `parametersJsonSchema`, kept to the keywords Gemini documents (`toGeminiJsonSchema`); `openapi`
 * derives the classic OpenAPI-subset `parameters` for models that need it.
 */
export type GeminiSchemaDialect = 'json-schema' | 'openapi';

/** The `tools` and `toolConfig` fields of a Gemini request, as {@link prepareGeminiTools} builds them. */
export interface GeminiToolFields {
  tools?: Tool[];
  toolConfig?: ToolConfig;
}

/**
 * Builds `tools` (one entry with every function declaration, then each Gemini built-in tool as given)
 * and `toolConfig.functionCallingConfig` from the request's tool choice: `auto` → AUTO, `required` →
 * ANY, `none` → NONE, one named tool → ANY with `allowedFunctionNames`. Gemini has no switch for
 * parallel calls, so `parallelToolCalls` is not sent. Provider tools of another provider are refused
 * with `PROVIDER_TOOL_MISMATCH`.
 */
export function prepareGeminiTools(
  request: Pick<LlmRequest, 'tools' | 'providerTools' | 'toolChoice'>,
  dialect: GeminiSchemaDialect = 'json-schema',
): GeminiToolFields {
  const tools: Tool[] = [];
  // The runner checked its tools when it was built; declarations added per request are checked here.
  checkGeminiTools(request.tools, dialect);
  if (request.tools.length > 0) {
    tools.push({ functionDeclarations: request.tools.map((declaration) => toDeclaration(declaration, dialect)) });
  }
  for (const config of selectProviderTools(request.providerTools, GEMINI_PROVIDER, 'a Gemini model')) tools.push(config as Tool);
  if (tools.length === 0) return {};
  if (request.tools.length === 0) return { tools };
  return { tools, toolConfig: { functionCallingConfig: toCallingConfig(request.toolChoice) } };
}

function toDeclaration(declaration: FunctionDeclaration, dialect: GeminiSchemaDialect): GeminiFunctionDeclaration {
  const { name, description } = declaration;
  if (dialect === 'json-schema') {
    return { name, description, parametersJsonSchema: hasParameters(declaration) ? geminiJsonSchemaFor(declaration) : { type: 'object', properties: {} } };
  }
  // The OpenAPI form of "no parameters" is no `parameters` at all (an OBJECT must list properties).
  if (!hasParameters(declaration)) return { name, description };
  return { name, description, parameters: geminiOpenApiSchemaFor(declaration) };
}

function toCallingConfig(choice: LlmRequest['toolChoice']): NonNullable<ToolConfig['functionCallingConfig']> {
  if (choice === undefined || choice === 'auto') return { mode: FunctionCallingConfigMode.AUTO };
  if (choice === 'none') return { mode: FunctionCallingConfigMode.NONE };
  if (choice === 'required') return { mode: FunctionCallingConfigMode.ANY };
  return { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] };
}
