import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AuthConfig } from '../auth/auth-config';
import type { ToolsmithMethodDecorator } from '../decorators/decorator-types';
import { defineMemberMetadata, isDecoratorContext } from '../decorators/standard-decorators';
import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { decoratorNotOnMethodMessage } from '../errors/messages';
import { TOOL_METADATA } from '../metadata-keys';
import type { JsonSchema } from '../model/json-schema';
import type { ConfirmationHint } from './confirmation-hint';
import type { RequireConfirmation } from './require-confirmation';

/** What users and toolsets see of a tool: read-only facts. The executor calls `BaseTool.run`. */
export interface Tool {
  /** The name the model calls the tool by (`^[a-zA-Z0-9_-]{1,64}$`); unique among the tools an agent offers. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** True when a call starts work that finishes later; the model is told not to call it again meanwhile. */
  readonly isLongRunning: boolean;
}

/**
 * Options of the {@link Tool} method decorator. `TArgs` types the arguments `requireConfirmation` and
 * `confirmationHint` receive: `@Tool<RefundArgs>({ requireConfirmation: (args) => args.amount > 100 })`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default, for options that name no argument type
export interface ToolOptions<TArgs = any> {
  /** Tool name; defaults to the method name. The toolset prefix is prepended. Must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** What the tool does, for the model. Defaults to the JSDoc summary from a build-time manifest. */
  description?: string;
  /** Replaces the whole generated parameters schema (must be `type: "object"`). */
  inputSchema?: JsonSchema;
  /**
   * The arguments as one Standard Schema (zod, valibot, arktype) of an object, for a method that takes
   * them as one object parameter: its library's JSON Schema conversion (made once, at startup) is what
   * the model sees, and its `validate` judges every call; the method gets the validated output. The
   * compiler checks the method's parameter type against the schema's output type.
   */
  input?: StandardSchemaV1<unknown, TArgs>;
  /** Schema of the result, sent where providers accept one: a JSON Schema, or a Standard Schema (converted once, its output side). */
  outputSchema?: JsonSchema | StandardSchemaV1;
  /** The call needs the user's approval before it runs. */
  requireConfirmation?: RequireConfirmation<TArgs>;
  /**
   * What the user is asked when `requireConfirmation` pauses a call: text, or a function of the
   * validated arguments (e.g. `(args) => \`Refund ${args.amount} €?\``). Default: a generic question
   * naming the tool.
   */
  confirmationHint?: ConfirmationHint<TArgs>;
  /** The call starts work that finishes later; see the long-running tools guide. */
  longRunning?: boolean;
  /**
   * Milliseconds an async call may run before it gets a `TOOL_TIMEOUT` error response and its
   * `ctx.signal` aborts; `Infinity` for none. Default: the runner's `toolTimeoutMs` (5 minutes).
   */
  timeoutMs?: number;
  /**
   * Characters of JSON the result may have; a larger one is cut for the model (head and tail kept).
   * Default: the runner's `maxResultChars` (100,000).
   */
  maxResultChars?: number;
  /**
   * Calls of this tool on one session run one after another, in the order they were made, instead of
   * at the same time (other tools' calls still run alongside): within one response, and across responses
   * and runs in this process, a call starts only once the tool's previous call has ended. Calls of other
   * sessions do not wait. For tools whose calls must not overlap.
   */
  sequential?: boolean;
  /**
   * Running a call twice with the same `ctx.idempotencyKey` has the effect of running it once. A
   * durable run (`@toolsmith/dbos`) retries such a call, with the same key, when its process died
   * inside it; other interrupted calls are answered `TOOL_INTERRUPTED` and never re-run. Default `false`.
   */
  idempotent?: boolean;
  /**
   * The credential the tool needs. Before each call the runner takes the user's stored credential
   * (refreshed when expired) or, when there is none, pauses with a `toolsmith_request_credential`
   * request; the tool runs once the user answered, with the credential in `ctx.credential`.
   */
  auth?: AuthConfig;
  /**
   * `false`: arguments that fail validation are refused as they are, without the named repairs (code
   * fence, trailing commas, double-encoded JSON, numbers and booleans as strings, `null` for an optional
   * property, an enum value's case). Default: the runner's `repairArguments` (on).
   */
  repairArguments?: boolean;
}

/**
 * What `@Tool({ input })` returns: a method decorator (standard or legacy) that accepts only a method whose
 * first parameter takes the schema's output type `TArgs` (the compiler reports a method expecting something else).
 */
export interface ToolInputDecorator<TArgs> {
  /** Legacy decorators: the prototype, the method's name and its property descriptor. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the rest of the method's parameters (a ToolContext) are not the schema's business
  <TMethod extends (args: TArgs, ...rest: any[]) => unknown>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<TMethod>): void;
  /** Standard decorators: the method and its decorator context. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  <TMethod extends (args: TArgs, ...rest: any[]) => unknown>(value: TMethod, context: ClassMethodDecoratorContext<unknown, TMethod>): void;
}

/**
 * Marks a method as a tool. Only records its options; the scanner builds the schema at startup. Works
 * with standard decorators (TypeScript's default) and with legacy `experimentalDecorators`; with standard
 * decorators the parameters come from `input` (a Standard Schema), the build-time manifest
 * (`toolsmith schema`) or an explicit `inputSchema`, since parameter decorators (`@Param`) exist only in legacy mode.
 *
 * @example
 * ```ts
 * @Tool({ description: 'Retrieves the current weather report for a city.' })
 * getWeather(@Param('city') city: string) { ... }
 *
 * // The arguments as one Standard Schema (zod here); `args` must take its output type.
 * @Tool({ input: z.object({ city: z.string() }) })
 * getForecast(args: { city: string }) { ... }
 * ```
 */
export function Tool<TInput extends StandardSchemaV1>(options: ToolOptions<StandardSchemaV1.InferOutput<TInput>> & { input: TInput }): ToolInputDecorator<StandardSchemaV1.InferOutput<TInput>>;
/**
 * Marks a method as a tool (options without `input`; `TArgs` types what `requireConfirmation` and
 * `confirmationHint` receive). Only records its options; the scanner builds the schema at startup.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default, for a tool whose options name no argument type
export function Tool<TArgs = any>(options?: ToolOptions<NoInfer<TArgs>>): ToolsmithMethodDecorator;
export function Tool(options: ToolOptions = {}): ToolsmithMethodDecorator {
  return ((target: unknown, key: string | symbol | DecoratorContext) => {
    if (isDecoratorContext(key)) {
      if (key.kind !== 'method' || key.static || key.private) {
        throw new InvalidDecoratorError(decoratorNotOnMethodMessage('@Tool()', key));
      }
      defineMemberMetadata(key, TOOL_METADATA, { ...options }, '@Tool()');
      return;
    }
    Reflect.defineMetadata(TOOL_METADATA, { ...options }, target as object, key);
  }) as ToolsmithMethodDecorator;
}
