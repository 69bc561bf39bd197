import { FunctionCallingConfigMode } from './google-genai';
import type { FunctionDeclaration as GeminiFunctionDeclaration, Schema, Tool, ToolConfig } from '@google/genai' with { 'resolution-mode': 'import' };
import type { FunctionDeclaration, JsonSchema, LlmRequest } from '@toolsmith/core';
import { selectProviderTools } from '@toolsmith/core/adapter-kit';
import { GEMINI_FUNCTION_NAME, GeminiToolNameError } from './gemini-tool-name-error';
import { GEMINI_PROVIDER } from './provider-tool';
import { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';

/**
 * How function parameters are described to Gemini: `json-schema` sends the canonical JSON Schema as
 * `parametersJsonSchema`; `openapi` derives the classic OpenAPI-subset `parameters` for models that
 * need it.
 */
export type GeminiSchemaDialect = 'json-schema' | 'openapi';

/** The `tools` and `toolConfig` fields of a Gemini request, as {@link prepareGeminiTools} builds them. */
export interface GeminiToolFields {
  tools?: Tool[];
  toolConfig?: ToolConfig;
}

// Canonical schemas are built once per tool and reused, so each is converted once.
const openApiCache = new WeakMap<JsonSchema, Schema>();

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
  if (request.tools.length > 0) {
    tools.push({ functionDeclarations: request.tools.map((declaration) => toDeclaration(declaration, dialect)) });
  }
  for (const config of selectProviderTools(request.providerTools, GEMINI_PROVIDER, 'a Gemini model')) tools.push(config as Tool);
  if (tools.length === 0) return {};
  if (request.tools.length === 0) return { tools };
  return { tools, toolConfig: { functionCallingConfig: toCallingConfig(request.toolChoice) } };
}

function toDeclaration(declaration: FunctionDeclaration, dialect: GeminiSchemaDialect): GeminiFunctionDeclaration {
  const { name, description, parameters } = declaration;
  if (!GEMINI_FUNCTION_NAME.test(name)) throw new GeminiToolNameError(name);
  const hasProperties = Object.keys((parameters.properties as object | undefined) ?? {}).length > 0;
  if (dialect === 'json-schema') {
    // `$schema` names the draft for validators; Gemini only documents the schema keywords themselves.
    const { $schema: _dialect, ...schema } = parameters;
    return { name, description, parametersJsonSchema: hasProperties ? schema : { type: 'object', properties: {} } };
  }
  // The OpenAPI form of "no parameters" is no `parameters` at all (an OBJECT must list properties).
  if (!hasProperties) return { name, description };
  let converted = openApiCache.get(parameters);
  if (!converted) {
    converted = toGeminiOpenApiSchema(parameters, name);
    openApiCache.set(parameters, converted);
  }
  return { name, description, parameters: converted };
}

function toCallingConfig(choice: LlmRequest['toolChoice']): NonNullable<ToolConfig['functionCallingConfig']> {
  if (choice === undefined || choice === 'auto') return { mode: FunctionCallingConfigMode.AUTO };
  if (choice === 'none') return { mode: FunctionCallingConfigMode.NONE };
  if (choice === 'required') return { mode: FunctionCallingConfigMode.ANY };
  return { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] };
}
