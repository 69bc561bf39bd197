import type { Schema } from '@google/genai' with { 'resolution-mode': 'import' };
import type { FunctionDeclaration, JsonSchema } from '@toolsmith/core';
import { ToolLimitError, findToolLimitViolation } from '@toolsmith/core/adapter-kit';
import { GEMINI_FUNCTION_NAME, GeminiToolNameError } from './gemini-tool-name-error';
import { GEMINI_TOOL_LIMITS } from './gemini-tool-limits';
import type { GeminiSchemaDialect } from './prepare-gemini-tools';
import { toGeminiJsonSchema } from './to-gemini-json-schema';
import { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';

// Canonical schemas are built once per tool and reused, so each is converted once per dialect.
const jsonSchemaCache = new WeakMap<JsonSchema, JsonSchema>();
const openApiCache = new WeakMap<JsonSchema, Schema>();

/**
 * Checks that Gemini takes these declarations in `dialect`: each name (`GEMINI_FUNCTION_NAME`), the
 * documented limits ({@link GEMINI_TOOL_LIMITS}) and each schema's conversion (kept for the requests).
 * Throws `GeminiToolNameError`, `ToolLimitError` or `GeminiSchemaError`. What `GeminiModel.checkTools` runs.
 */
export function checkGeminiTools(declarations: readonly FunctionDeclaration[], dialect: GeminiSchemaDialect): void {
  for (const { name } of declarations) if (!GEMINI_FUNCTION_NAME.test(name)) throw new GeminiToolNameError(name);
  const violation = findToolLimitViolation(declarations, GEMINI_TOOL_LIMITS);
  if (violation) throw new ToolLimitError('Gemini', violation);
  for (const declaration of declarations) {
    if (dialect === 'json-schema') geminiJsonSchemaFor(declaration);
    else if (hasParameters(declaration)) geminiOpenApiSchemaFor(declaration);
  }
}

/** True when the tool takes at least one parameter (else Gemini gets an empty object, or no `parameters`). */
export function hasParameters(declaration: FunctionDeclaration): boolean {
  return Object.keys((declaration.parameters.properties as object | undefined) ?? {}).length > 0;
}

/** `parametersJsonSchema` for a declaration, converted once per schema object. */
export function geminiJsonSchemaFor(declaration: FunctionDeclaration): JsonSchema {
  let converted = jsonSchemaCache.get(declaration.parameters);
  if (!converted) jsonSchemaCache.set(declaration.parameters, (converted = toGeminiJsonSchema(declaration.parameters, declaration.name)));
  return converted;
}

/** OpenAPI-subset `parameters` for a declaration, converted once per schema object. */
export function geminiOpenApiSchemaFor(declaration: FunctionDeclaration): Schema {
  let converted = openApiCache.get(declaration.parameters);
  if (!converted) openApiCache.set(declaration.parameters, (converted = toGeminiOpenApiSchema(declaration.parameters, declaration.name)));
  return converted;
}
