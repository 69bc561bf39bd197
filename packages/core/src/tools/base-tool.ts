import type { AuthConfig } from '../auth/auth-config';
import type { FunctionDeclaration } from '../model/function-declaration';
import type { JsonSchema } from '../model/json-schema';
import type { LlmRequest } from '../model/llm-request';
import type { ConfirmationHint } from './confirmation-hint';
import { type RequireConfirmation, assertConfirmationRule } from './require-confirmation';
import type { Tool } from './tool';
import type { ToolContext } from './tool-context';

/** Appended to a long-running tool's description so the model does not call it again while it is pending. */
export const LONG_RUNNING_NOTE =
  'NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.';

/** The names of a tool's optional behaviour fields. */
export type ToolBehaviourKey =
  | 'responseSchema'
  | 'isLongRunning'
  | 'requireConfirmation'
  | 'confirmationHint'
  | 'timeoutMs'
  | 'maxResultChars'
  | 'sequential'
  | 'auth'
  | 'repairArguments'
  | 'idempotent';

// A record rather than an array, so the compiler insists on every key.
const BEHAVIOUR_KEYS = Object.keys({
  responseSchema: true,
  isLongRunning: true,
  requireConfirmation: true,
  confirmationHint: true,
  timeoutMs: true,
  maxResultChars: true,
  sequential: true,
  auth: true,
  repairArguments: true,
  idempotent: true,
} satisfies Record<ToolBehaviourKey, true>) as ToolBehaviourKey[];

/**
 * A tool's optional behaviour (result schema, long-running, confirmation, timeout, result budget,
 * sequential calls, credentials, argument repair): what `BaseTool`'s constructor takes, field for field.
 * One list, so a tool built from a spec (a decorated method, a `functionTool` config) cannot forget one.
 */
export type ToolBehaviour = { readonly [K in ToolBehaviourKey]?: BaseTool[K] };

/**
 * The one public way to write a callable tool by hand. The executor validates the arguments against
 * `parameters` (ajv, compiled once on first use) before `run` is called, so `run` sees valid input.
 * Decorated classes and `functionTool` produce subclasses of this.
 */
export abstract class BaseTool implements Tool {
  /** The name the model calls the tool by (`^[a-zA-Z0-9_-]{1,64}$`); unique among the tools an agent offers. */
  abstract readonly name: string;
  /** What the tool does, for the model; a long-running tool's declaration adds {@link LONG_RUNNING_NOTE} to it. */
  abstract readonly description: string;
  /** Canonical JSON Schema (draft 2020-12) of the arguments; always `type: "object"`. */
  abstract readonly parameters: JsonSchema;
  /** Schema of the result, when known. */
  readonly responseSchema?: JsonSchema;
  /** True when a call starts work that finishes later: the model is told not to repeat it, the call stays pending. Default `false`. */
  readonly isLongRunning: boolean = false;
  /** Whether a call needs the user's approval before it runs (checked on validated arguments); absent or `false`: never. */
  readonly requireConfirmation?: RequireConfirmation;
  /** What the user is asked when {@link BaseTool.requireConfirmation} pauses a call; default: a generic question. */
  readonly confirmationHint?: ConfirmationHint;
  /** Milliseconds an async call may run (then `TOOL_TIMEOUT`, `ctx.signal` aborted); default: the runner's `toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Characters of JSON the result may have before it is cut for the model; default: the runner's `maxResultChars`. */
  readonly maxResultChars?: number;
  /** Calls of this tool on one session run one after another, in the order they were made (see `@Tool({ sequential })`). */
  readonly sequential?: boolean;
  /** The credential the tool needs: obtained (or asked of the user) before it runs, then in `ctx.credential`. */
  readonly auth?: AuthConfig;
  /** `false` refuses arguments that need a repair instead of repairing them (see `ToolCallPolicy.repairArguments`). */
  readonly repairArguments?: boolean;
  /**
   * Running a call twice with the same `ctx.idempotencyKey` has the effect of running it once (the tool
   * passes the key to the system it changes). A durable run (`@toolsmith/dbos`) retries such a call when
   * its process died inside it; any other interrupted call is answered `TOOL_INTERRUPTED`, never re-run.
   */
  readonly idempotent?: boolean;
  private cachedDeclaration?: FunctionDeclaration;

  /** @param behaviour - the tool's optional behaviour; fields it leaves out keep their defaults. Extra fields are ignored. */
  constructor(behaviour: ToolBehaviour = {}) {
    // The subclass's name is not set yet: the class names the tool.
    assertConfirmationRule(behaviour.requireConfirmation, { className: new.target.name });
    for (const key of BEHAVIOUR_KEYS) {
      const value = behaviour[key];
      // The fields are readonly to users; this is their one assignment (a plain one, so a subclass may still set its own).
      if (value !== undefined) (this as unknown as Record<string, unknown>)[key] = value;
    }
  }

  /** Runs the tool with validated arguments. Return a plain object, or any value to be wrapped as `{ result }`. */
  abstract run(args: Record<string, unknown>, context: ToolContext): unknown;

  /** Adds instructions or declarations to the request before it is sent (optional). */
  processRequest?(context: ToolContext, request: LlmRequest): void | Promise<void>;

  /** What the model is told about this tool. Built once. */
  declaration(): FunctionDeclaration {
    if (!this.cachedDeclaration) {
      const description = this.isLongRunning
        ? `${this.description}${this.description ? '\n\n' : ''}${LONG_RUNNING_NOTE}`
        : this.description;
      this.cachedDeclaration = { name: this.name, description, parameters: this.parameters };
      if (this.responseSchema) this.cachedDeclaration.response = this.responseSchema;
    }
    return this.cachedDeclaration;
  }
}
