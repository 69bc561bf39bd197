import type { FunctionDeclaration } from '@toolsmith/core';
import { ProviderToolNameError, ToolLimitError, findToolLimitViolation } from '@toolsmith/core/adapter-kit';
import { OPENAI_FUNCTION_NAME, OPENAI_STRICT_LONG_ENUM, OPENAI_TOOL_LIMITS } from './openai-tool-limits';
import { StrictSchemaError } from './strict-schema-error';
import { strictSchemaFor } from './to-strict-json-schema';

/**
 * Checks that OpenAI takes these declarations, in the order a reader would fix them: each name, the
 * documented limits ({@link OPENAI_TOOL_LIMITS}), then in strict mode each schema's strict form (built
 * once per declaration and reused by the requests). Throws `ProviderToolNameError`, `ToolLimitError`
 * or `StrictSchemaError`, each naming the tool, where, and the fix. What `OpenAIModel.checkTools` runs.
 */
export function checkOpenAITools(declarations: readonly FunctionDeclaration[], strict: boolean): void {
  for (const { name } of declarations) {
    if (!OPENAI_FUNCTION_NAME.test(name)) throw new ProviderToolNameError('OpenAI', name, 'hold only letters, digits, "_" and "-", at most 64 characters');
  }
  const violation = findToolLimitViolation(declarations, strict ? OPENAI_TOOL_LIMITS.strict : OPENAI_TOOL_LIMITS.all);
  if (violation) throw new ToolLimitError(strict ? 'OpenAI (strict mode)' : 'OpenAI', violation);
  if (!strict) return;
  for (const declaration of declarations) {
    strictSchemaFor(declaration);
    checkLongEnums(declaration.name, declaration.parameters, '');
  }
}

/** Strict mode's rule for long string enums (see {@link OPENAI_STRICT_LONG_ENUM}). */
function checkLongEnums(toolName: string, node: unknown, path: string): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    node.forEach((item, index) => checkLongEnums(toolName, item, `${path}/${index}`));
    return;
  }
  const values = (node as { enum?: unknown }).enum;
  if (Array.isArray(values) && values.length > OPENAI_STRICT_LONG_ENUM.values) {
    const chars = values.reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
    if (chars > OPENAI_STRICT_LONG_ENUM.totalChars) {
      throw new StrictSchemaError(
        toolName,
        'enum',
        path,
        `an enum of more than ${OPENAI_STRICT_LONG_ENUM.values} strings may hold at most ${OPENAI_STRICT_LONG_ENUM.totalChars} characters in all (this one: ${chars})`,
      );
    }
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'enum' && key !== 'const' && key !== 'default') checkLongEnums(toolName, value, `${path}/${key}`);
}
