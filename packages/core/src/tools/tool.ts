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
  /** Schema of the result, sent where providers accept one. */
  outputSchema?: JsonSchema;
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
   * Calls of this tool from one model response run one after another, in call order, instead of at
   * the same time (other tools' calls still run alongside). For tools whose calls must not overlap.
   */
  sequential?: boolean;
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
 * Marks a method as a tool. Only records its options; the scanner builds the schema at startup. Works
 * with standard decorators (TypeScript's default) and with legacy `experimentalDecorators`; with standard
 * decorators the parameters come from the build-time manifest (`toolsmith schema`) or an explicit
 * `inputSchema`, since parameter decorators (`@Param`) exist only in legacy mode.
 *
 * @example
 * ```ts
 * @Tool({ description: 'Retrieves the current weather report for a city.' })
 * getWeather(@Param('city') city: string) { ... }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default, for a tool whose options name no argument type
export function Tool<TArgs = any>(options: ToolOptions<NoInfer<TArgs>> = {}): ToolsmithMethodDecorator {
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
