import type { ErrorObject } from 'ajv/dist/2020';
import { type ArgumentProblem, InvalidArgumentsError } from '../errors/tool-call-errors';
import type { ToolContext } from '../tools/tool-context';
import type { ParameterBinding } from './parameter-binder';

/**
 * A tool whose arguments class-validator also checks after ajv (a DTO with a rule JSON Schema cannot
 * fully state, such as `@IsISO8601()`), and that can list those problems without running the tool.
 */
export interface ChecksDtoArguments {
  /** The class-validator problems of `args` (empty when it accepts them or cannot judge them). */
  dtoArgumentProblems(args: Record<string, unknown>, context: ToolContext): Promise<readonly ArgumentProblem[]>;
}

/** True when `tool` can list its class-validator problems (see {@link ChecksDtoArguments}). */
export function checksDtoArguments(tool: object): tool is ChecksDtoArguments {
  return typeof (tool as Partial<ChecksDtoArguments>).dtoArgumentProblems === 'function';
}

/**
 * The class-validator problems a binding finds in `args`: the same conversion and the same check a call
 * runs, with the problems returned instead of thrown. Arguments ajv already rejected may not convert
 * at all (a string where a nested DTO belongs); ajv's problems say enough then, so nothing is added.
 */
export async function bindingProblems(binding: ParameterBinding, args: Record<string, unknown>, context: ToolContext): Promise<readonly ArgumentProblem[]> {
  if (!binding.runsClassValidator) return [];
  try {
    await binding.bind(args, context);
    return [];
  } catch (thrown) {
    return thrown instanceof InvalidArgumentsError ? thrown.problems : [];
  }
}

/** Input of {@link allArgumentProblems}. */
export interface AllArgumentProblemsInput {
  tool: object;
  args: Record<string, unknown>;
  context: ToolContext;
  /** ajv's problems, as the executor words them. */
  schemaProblems: readonly ArgumentProblem[];
  /** ajv's errors behind them, read from the validator before any await (ajv reuses `validate.errors`). */
  schemaErrors: readonly ErrorObject[] | null | undefined;
}

/**
 * Every problem of a call that ajv rejected, for one response: ajv's problems, then class-validator's
 * at paths ajv said nothing about (at or under). Without this the model would hear class-validator's
 * problems (an ISO date, a length counted differently) only after fixing ajv's, one round trip later.
 * Synchronous for a tool without class-validator checks.
 */
export function allArgumentProblems(input: AllArgumentProblemsInput): readonly ArgumentProblem[] | Promise<readonly ArgumentProblem[]> {
  const { tool, schemaProblems } = input;
  // A tool without class-validator checks has ajv's problems only: returned as they are, with no await.
  if (!checksDtoArguments(tool)) return schemaProblems;
  const covered = new Set((input.schemaErrors ?? []).map(problemPath));
  return tool.dtoArgumentProblems(input.args, input.context).then((more) => [...schemaProblems, ...more.filter((p) => !isCovered(p.path, covered))]);
}

/** Where an ajv error is: `required` and `additionalProperties` are about one property of the object. */
function problemPath(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const property = error.keyword === 'required' ? params.missingProperty : error.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  return property === undefined ? error.instancePath : `${error.instancePath}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * True when `path` or one of its ancestors (`/a/b` → `/a`, `""`) is covered: one set lookup per level,
 * so many problems on each side cost no more than their number (a scan of every path per problem was quadratic).
 */
function isCovered(path: string, covered: ReadonlySet<string>): boolean {
  if (covered.size === 0) return false;
  for (let end = path.length; end !== -1; end = path.lastIndexOf('/', end - 1)) {
    if (covered.has(path.slice(0, end))) return true;
    if (end === 0) break;
  }
  return false;
}
