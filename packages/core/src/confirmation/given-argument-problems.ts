import type { ArgumentProblem } from '../errors/tool-call-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { allArgumentProblems } from '../scanning/dto-problems';
import type { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import { type ArgumentLimits, parseArguments } from '../validation/argument-parser';
import { toArgumentProblems, validatorFor } from '../validation/schema-validator';
import { judgeArguments, standardArgumentsOf } from '../validation/standard-arguments';

/**
 * Checks arguments a person gave (an `edit` answer) against a tool, as the executor checks a model's
 * (the argument limits, the JSON Schema or Standard Schemas, then the DTO rules), but with no repairs:
 * a person's edit runs as given or not at all. Returns the checked arguments (a Standard Schema's
 * output values), or every problem. `toolContext` makes a throwaway context for the DTO rules.
 */
export async function givenArgumentProblems(
  tool: BaseTool,
  given: Record<string, unknown>,
  limits: ArgumentLimits,
  toolContext: () => ToolContext,
): Promise<{ args: Record<string, unknown> } | { problems: readonly ArgumentProblem[] }> {
  let args: Record<string, unknown>;
  try {
    args = parseArguments(tool.name, given, limits);
  } catch (thrown) {
    if (!ToolsmithError.isInstance(thrown)) throw thrown;
    return { problems: [{ path: '', keyword: thrown.code, message: thrown.message }] };
  }
  const standard = standardArgumentsOf(tool);
  if (standard) {
    const judging = judgeArguments({ toolName: tool.name, parameters: tool.parameters, check: standard, args, repairing: false, limits });
    const judged = judging instanceof Promise ? await judging : judging;
    if (!judged.problems) return { args: judged.checked };
    return { problems: await allArgumentProblems({ tool, args: judged.checked, context: toolContext(), schemaProblems: judged.problems, schemaErrors: judged.schemaErrors }) };
  }
  const validate = validatorFor(tool.parameters);
  if (validate(args)) return { args };
  const schemaErrors = validate.errors;
  return { problems: await allArgumentProblems({ tool, args, context: toolContext(), schemaProblems: toArgumentProblems(schemaErrors, args), schemaErrors }) };
}
