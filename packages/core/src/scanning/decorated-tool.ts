import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { type ChecksDtoArguments, bindingProblems } from './dto-problems';
import type { ScannedTool } from './tool-scanner';
import { BaseTool } from '../tools/base-tool';
import type { RequireConfirmation } from '../tools/require-confirmation';
import type { ToolContext } from '../tools/tool-context';
import type { HasStandardArguments, StandardArguments } from '../validation/standard-arguments';

/** Gives the object whose method a call runs on; may build it (DI) on first use. */
export type InstanceSource = (context: ToolContext) => object | Promise<object>;

/**
 * A `@Tool` method as a {@link BaseTool}: the executor validates, then `run` binds the arguments with
 * the binder precomputed at scan time and calls the method on the instance. Internal to core.
 */
export class DecoratedTool extends BaseTool implements ChecksDtoArguments, Partial<HasStandardArguments> {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** Which class and method this tool calls. */
  readonly className: string;
  readonly methodName: string;
  /** The Standard Schemas that judge the arguments, when the method declares any. */
  readonly standardArguments?: StandardArguments;
  private readonly scanned: ScannedTool;

  constructor(
    scanned: ScannedTool,
    private readonly instanceFor: InstanceSource,
  ) {
    super({ ...scanned, requireConfirmation: checkedRequireConfirmation(scanned) });
    this.scanned = scanned;
    this.name = scanned.name;
    this.description = scanned.description;
    this.parameters = scanned.parameters;
    this.className = scanned.className;
    this.methodName = scanned.methodName;
    if (scanned.standardArguments) this.standardArguments = scanned.standardArguments;
  }

  // Implements ChecksDtoArguments: the executor reports these with ajv's problems, in one response.
  dtoArgumentProblems(args: Record<string, unknown>, context: ToolContext): Promise<readonly ArgumentProblem[]> {
    return bindingProblems(this.scanned.binding, args, context);
  }

  // Stays synchronous when the instance and the arguments are ready, so a call pays no extra await.
  run(args: Record<string, unknown>, context: ToolContext): unknown {
    const instance = this.instanceFor(context);
    if (instance instanceof Promise) return instance.then((ready) => this.call(ready, args, context));
    return this.call(instance, args, context);
  }

  private call(instance: object, args: Record<string, unknown>, context: ToolContext): unknown {
    const values = this.scanned.binding.bind(args, context);
    // A binder returns an array, or a promise of one when class-validator has to run.
    if (Array.isArray(values)) return this.scanned.method.apply(instance, values);
    return values.then((ready) => this.scanned.method.apply(instance, ready));
  }
}

/**
 * The executor asks for confirmation after ajv but before `run`; where class-validator must also check
 * the arguments, check them first, so the user is never asked to approve a call that would fail.
 */
function checkedRequireConfirmation(scanned: ScannedTool): RequireConfirmation | undefined {
  const rule = scanned.requireConfirmation;
  if (rule === undefined || rule === false || !scanned.binding.runsClassValidator) return rule;
  return async (args: Record<string, unknown>, context: ToolContext) => {
    await scanned.binding.bind(args, context);
    return rule === true ? true : rule(args, context);
  };
}
