import type { FunctionResponsePart } from '../model/content';
import type { ToolsmithError } from '../errors/toolsmith-error';
import type { ArgumentLimits } from '../validation/argument-parser';
import { executeToolCall } from '../internal/tool-executor';
import { DEFAULT_TOOL_CALL_POLICY, type ToolErrorExposure, type ToolOutputValidation } from '../tools/tool-call-policy';
import type { ArtifactService } from '../artifacts/artifact-service';
import { CredentialManager } from '../auth/credential-manager';
import type { CredentialService } from '../auth/credential-service';
import { Container } from '../di/container';
import type { ContainerAdapter } from '../di/container-adapter';
import type { Provider } from '../di/provider';
import type { MemoryService } from '../memory/memory-service';
import { createClassTools } from '../scanning/class-tools';
import { DecoratedTool } from '../scanning/decorated-tool';
import type { EventActions, ToolConfirmation } from '../state/event-actions';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import { type Toolset, isToolset } from '../tools/toolset';
import { testToolContext } from './test-tool-context';
import type { InvokableToolArguments, InvokableToolName } from './invoke-tool-types';

/** Options of {@link invokeTool}. */
export interface InvokeToolOptions {
  /** Session state before the call (keys with `app:`/`user:`/`temp:` prefixes included). */
  state?: Record<string, unknown>;
  /** Providers for the `@Toolset` class's dependencies (a new {@link Container} is made from them). */
  providers?: Provider[];
  /** Use this container instead of `providers` (e.g. one shared by several invocations). */
  container?: ContainerAdapter;
  /** Simulates the call running after the user answered a confirmation request. */
  toolConfirmation?: ToolConfirmation;
  /** Ids the context reports; defaults are fixed test values. */
  appName?: string;
  /** The user `ctx.userId` reports (and memory, artifacts and credentials are looked up for); default `test-user`. */
  userId?: string;
  /** The session `ctx.sessionId` reports (and artifacts are kept in); default `test-session`. */
  sessionId?: string;
  /** The agent `ctx.agentName` reports as the caller; default `test-agent`. */
  agentName?: string;
  /** The invocation `ctx.invocationId` reports; default `invocation-1`. */
  invocationId?: string;
  /** The call's id, also the response's; default `call-1`. */
  functionCallId?: string;
  /** Aborting it aborts the tool's `ctx.signal` and ends the call with `RUN_ABORTED`, leaving nothing behind, as cancelling a run does. */
  signal?: AbortSignal;
  /** Backs `ctx.searchMemory`; without it that method throws `SERVICE_NOT_CONFIGURED`. */
  memoryService?: MemoryService;
  /** Backs the artifact methods of `ctx`; with it, a result over the budget is also saved whole as an artifact. */
  artifactService?: ArtifactService;
  /**
   * Users' credentials, as the runner's `credentialService`: a tool with `auth` runs with `ctx.credential`
   * when one is stored, else it waits (`confirmationRequested`, the request in `actions.requestedToolConfirmations`).
   */
  credentialService?: CredentialService;
  /** Argument size and depth limits, as configured on the runner. */
  limits?: ArgumentLimits;
  /** Tool timeout (ms), result budget (characters) and error exposure, as configured on the runner (`toolTimeoutMs`, `maxResultChars`, `toolErrorExposure`). */
  toolTimeoutMs?: number;
  /** Characters of JSON the result may have before it is cut, as the runner's `maxResultChars`; default 100,000. */
  maxResultChars?: number;
  /** Bytes the files of the result may have together, as the runner's `maxToolFileBytes`; default 20 MiB. */
  maxToolFileBytes?: number;
  /** What the response says of an error the tool throws, as the runner's `toolErrorExposure`; default `'message'`. */
  toolErrorExposure?: ToolErrorExposure;
  /** Results that break the tool's declared output schema: `'error'` (default), `'warn'` or `'off'`, as on the runner. */
  toolOutputValidation?: ToolOutputValidation;
}

/** What one {@link invokeTool} call produced. */
export interface InvokeToolResult {
  /** The function response the model would see (an `{ error: { code, message } }` object on failure). */
  response: Record<string, unknown>;
  /** The files of the result (`toolFile`, `toolResult`), base64, as the model gets them beside `response`; absent when none. */
  parts?: FunctionResponsePart[];
  /** True when the call failed (`response` is then an error object); also true while it waits for confirmation. */
  isError: boolean;
  /** The typed failure, with its `cause`; absent on success. */
  error?: ToolsmithError;
  /** State writes of the call (`null` = deleted). */
  stateDelta: Record<string, unknown>;
  /** Every action of the call: transfer, escalate, artifacts, requested confirmations, … */
  actions: EventActions;
  /** The tool did not complete: it waits for the user's confirmation (or, with `auth` set on the request, a credential). */
  confirmationRequested: boolean;
}

/**
 * Runs one tool exactly as the runner does (argument parsing, validation, DI, context, confirmation
 * gate, result wrapping, typed errors), with no model, for unit tests. `target` is a `@Toolset`
 * class (built through the container), an instance with `@Tool` methods, a `BaseTool`, or a `Toolset`.
 *
 * For a `@Toolset` class or instance, `toolName` is the tool's name or its method's name, and both it and
 * `args` are checked at compile time: a name that is no method's (or does not end with one, as a
 * prefixed name does) does not compile, nor, for a method taking one object (a DTO or
 * `@Tool({ input })`), arguments of the wrong shape (see {@link InvokableToolArguments}). Arguments given
 * as JSON text are not checked: that is how a test sends invalid arguments on purpose.
 *
 * @example
 * ```ts
 * const { response, stateDelta } = await invokeTool(CartTools, 'add_item', { sku: 'A1' }, {
 *   providers: [{ provide: Inventory, useValue: fakeInventory }],
 *   state: { 'user:cart': [] },
 * });
 * expect(response).toEqual({ status: 'added' });
 * ```
 */
export async function invokeTool<Target extends Function | object, const Name extends InvokableToolName<Target>>(
  target: Target,
  toolName: Name,
  args: InvokableToolArguments<Target, Name> | string,
  options: InvokeToolOptions = {},
): Promise<InvokeToolResult> {
  const context = testToolContext({
    functionCallId: options.functionCallId,
    invocationId: options.invocationId,
    agentName: options.agentName,
    appName: options.appName,
    userId: options.userId,
    sessionId: options.sessionId,
    state: options.state,
    signal: options.signal,
    toolConfirmation: options.toolConfirmation,
    memoryService: options.memoryService,
    artifactService: options.artifactService,
    credentials: options.credentialService ? new CredentialManager(options.credentialService) : undefined,
  });
  const tools = await toolsOf(target, options, context);
  const tool = tools.find((t) => t.name === toolName) ?? toolOfMethod(tools, toolName);
  const outcome = await executeToolCall({
    call: { id: context.functionCallId, name: tool?.name ?? toolName, args },
    tool,
    availableToolNames: () => tools.map((t) => t.name),
    context,
    limits: options.limits,
    policy: {
      timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_CALL_POLICY.timeoutMs,
      maxResultChars: options.maxResultChars ?? DEFAULT_TOOL_CALL_POLICY.maxResultChars,
      maxFileBytes: options.maxToolFileBytes ?? DEFAULT_TOOL_CALL_POLICY.maxFileBytes,
      errorExposure: options.toolErrorExposure ?? DEFAULT_TOOL_CALL_POLICY.errorExposure,
      outputValidation: options.toolOutputValidation ?? DEFAULT_TOOL_CALL_POLICY.outputValidation,
    },
    saveWholeResults: options.artifactService !== undefined,
  });
  return {
    response: outcome.response.response,
    ...(outcome.response.parts ? { parts: outcome.response.parts } : {}),
    isError: outcome.response.isError === true,
    ...(outcome.error ? { error: outcome.error } : {}),
    stateDelta: context.actions.stateDelta,
    actions: context.actions,
    confirmationRequested: outcome.confirmationRequested === true,
  };
}

/** The one tool made from method `methodName` (so a test may name the method rather than the prefixed or renamed tool). */
function toolOfMethod(tools: readonly BaseTool[], methodName: string): BaseTool | undefined {
  const matching = tools.filter((tool) => tool instanceof DecoratedTool && tool.methodName === methodName);
  return matching.length === 1 ? matching[0] : undefined;
}

async function toolsOf(target: Function | object, options: InvokeToolOptions, context: ToolContext): Promise<BaseTool[]> {
  if (target instanceof BaseTool) return [target];
  if (Array.isArray(target) && target.every((t) => t instanceof BaseTool)) return target;
  if (isToolset(target)) return (target as Toolset).getTools(context);
  return createClassTools(target, { container: options.container ?? new Container(options.providers) });
}
