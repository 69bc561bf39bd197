import type { FunctionDeclaration } from '@toolsmith/core';
import { ProviderToolNameError, ToolLimitError, findToolLimitViolation } from '@toolsmith/core/adapter-kit';
import { ANTHROPIC_TOOL_LIMITS, ANTHROPIC_TOOL_NAME } from './anthropic-tool-limits';
import { toAnthropicInputSchema } from './to-anthropic-input-schema';

/**
 * Checks that Anthropic takes these declarations: each name ({@link ANTHROPIC_TOOL_NAME}), the
 * documented limits ({@link ANTHROPIC_TOOL_LIMITS}), and each `input_schema` (converted once per
 * declaration, reused by the requests). Throws `ProviderToolNameError` or `ToolLimitError`, naming the
 * tool and the fix. What `AnthropicModel.checkTools` runs.
 */
export function checkAnthropicTools(declarations: readonly FunctionDeclaration[]): void {
  for (const { name } of declarations) {
    if (!ANTHROPIC_TOOL_NAME.test(name)) throw new ProviderToolNameError('Anthropic', name, 'hold only letters, digits, "_" and "-", at most 64 characters');
  }
  const violation = findToolLimitViolation(declarations, ANTHROPIC_TOOL_LIMITS);
  if (violation) throw new ToolLimitError('Anthropic', violation);
  for (const declaration of declarations) toAnthropicInputSchema(declaration);
}
