import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AuthConfig } from '../auth/auth-config';
import type { DefinitionSite } from '../errors/messages';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { type ChecksDtoArguments, bindingProblems } from '../scanning/dto-problems';
import { buildDtoSchema } from '../scanning/dto-schema';
import { type ParameterBinding, createParameterBinding } from '../scanning/parameter-binder';
import { checkExplicitSchema, standardSchemaAsJson } from '../scanning/tool-scanner';
import { assertToolName } from '../scanning/tool-name';
import { assertConfirmationRule } from '../tools/require-confirmation';
import { BaseTool } from '../tools/base-tool';
import type { ConfirmationHint } from '../tools/confirmation-hint';
import type { RequireConfirmation } from '../tools/require-confirmation';
import type { ToolContext } from '../tools/tool-context';
import type { HasStandardArguments, StandardArguments } from '../validation/standard-arguments';
import { isStandardSchema } from '../validation/standard-schema';

/** Configuration of {@link functionTool}. */
export interface FunctionToolConfig<TArgs> {
  /** Tool name; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /**
   * The arguments: a Standard Schema of an object (zod, valibot, arktype: `execute` receives its
   * validated output, typed from it), a JSON Schema with `type: "object"`, or a class-validator DTO
   * class (then `execute` receives an instance of it). Omit for a tool without arguments.
   */
  parameters?: StandardSchemaV1<unknown, TArgs> | JsonSchema | (new (...args: never[]) => TArgs);
  /** Runs the tool with validated arguments. Return a plain object, or any value to be wrapped as `{ result }`. */
  execute: (args: TArgs, context: ToolContext) => unknown;
  /** Schema of the result, where providers accept one: a JSON Schema, or a Standard Schema (converted once, its output side). */
  responseSchema?: JsonSchema | StandardSchemaV1;
  /** The call needs the user's approval before it runs. */
  requireConfirmation?: RequireConfirmation<TArgs>;
  /** What the user is asked when `requireConfirmation` pauses a call; default: a generic question. */
  confirmationHint?: ConfirmationHint<TArgs>;
  /** The call starts work that finishes later. */
  isLongRunning?: boolean;
  /** Milliseconds an async call may run (then `TOOL_TIMEOUT`); default: the runner's `toolTimeoutMs`. */
  timeoutMs?: number;
  /** Characters of JSON the result may have before it is cut for the model; default: the runner's `maxResultChars`. */
  maxResultChars?: number;
  /** Calls of this tool on one session run one after another, in the order they were made (see `@Tool({ sequential })`). */
  sequential?: boolean;
  /** Running a call twice with the same `ctx.idempotencyKey` has the effect of running it once (see `@Tool({ idempotent })`). */
  idempotent?: boolean;
  /** The credential the tool needs: obtained (or asked of the user) before it runs, then in `ctx.credential`. */
  auth?: AuthConfig;
  /** `false`: refuse arguments that need a repair instead of repairing them; default: the runner's `repairArguments`. */
  repairArguments?: boolean;
}

const NO_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false });

class FunctionTool<TArgs> extends BaseTool implements ChecksDtoArguments, Partial<HasStandardArguments> {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  private readonly execute: (args: TArgs, context: ToolContext) => unknown;
  private readonly binding?: ParameterBinding;
  /** The Standard Schema that judges the arguments, when `parameters` is one. */
  readonly standardArguments?: StandardArguments;

  constructor(config: FunctionToolConfig<TArgs>) {
    const site: DefinitionSite = { className: 'functionTool', methodName: String(config.name) };
    const { responseSchema } = config;
    assertConfirmationRule(config.requireConfirmation, site);
    super({
      ...config,
      isLongRunning: config.isLongRunning === true,
      responseSchema: isStandardSchema(responseSchema) ? standardSchemaAsJson(responseSchema, site, false, 'output') : responseSchema,
    });
    assertToolName(config.name, site);
    this.name = config.name;
    this.description = config.description ?? '';
    this.execute = config.execute;
    const { parameters } = config;
    if (isStandardSchema(parameters)) {
      this.parameters = standardSchemaAsJson(parameters, site, true, 'input');
      this.standardArguments = { whole: parameters, properties: [] };
    } else if (typeof parameters === 'function') {
      const dto = buildDtoSchema(parameters, site);
      this.parameters = dto.schema;
      this.binding = createParameterBinding(config.name, [{ kind: 'dto', dto: { type: parameters, runClassValidator: dto.runClassValidator } }]);
    } else if (parameters) {
      checkExplicitSchema(parameters as JsonSchema, site, true);
      this.parameters = parameters;
    } else {
      this.parameters = NO_PARAMETERS;
    }
  }

  // Implements ChecksDtoArguments: the executor reports these with ajv's problems, in one response.
  dtoArgumentProblems(args: Record<string, unknown>, context: ToolContext): Promise<readonly ArgumentProblem[]> {
    return this.binding ? bindingProblems(this.binding, args, context) : Promise.resolve([]);
  }

  // Implements BaseTool.run: plain arguments as they are, a DTO converted (and checked) first.
  run(args: Record<string, unknown>, context: ToolContext): unknown {
    if (!this.binding) return this.execute(args as TArgs, context);
    const values = this.binding.bind(args, context);
    if (values instanceof Promise) return values.then(([dto]) => this.execute(dto as TArgs, context));
    return this.execute(values[0] as TArgs, context);
  }
}

/**
 * Makes a tool of a plain function, for tools that need no class. Built-ins (`exitLoop`, `loadMemory`)
 * use this too. Validation, confirmation and error handling are the same as for decorated tools.
 *
 * @example
 * ```ts
 * // With a Standard Schema (zod here): `tz` is typed from it, and zod validates every call.
 * const getTime = functionTool({
 *   name: 'get_time',
 *   description: 'Current time in a timezone.',
 *   parameters: z.object({ tz: z.string() }),
 *   execute: ({ tz }) => new Date().toLocaleString('en-US', { timeZone: tz }),
 * });
 *
 * // With a JSON Schema: type the arguments yourself.
 * const getTimeToo = functionTool({
 *   name: 'get_time',
 *   description: 'Current time in a timezone.',
 *   parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] },
 *   execute: ({ tz }: { tz: string }) => new Date().toLocaleString('en-US', { timeZone: tz }),
 * });
 * ```
 */
export function functionTool<TArgs = Record<string, unknown>>(config: FunctionToolConfig<TArgs>): BaseTool {
  return new FunctionTool(config);
}
