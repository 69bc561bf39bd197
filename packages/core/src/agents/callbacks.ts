import type { ToolsmithError } from '../errors/toolsmith-error';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { Tool } from '../tools/tool';
import type { ToolContext } from '../tools/tool-context';
import type { CallbackContext } from './callback-context';

/** A value, or a promise of it: what a callback may return. */
export type MaybePromise<T> = T | Promise<T>;
/** A tool response object, or nothing to let the call proceed unchanged. */
export type ToolCallbackResult = MaybePromise<Record<string, unknown> | undefined | void>;
/** A model response, or nothing to let the call proceed unchanged. */
export type ModelCallbackResult = MaybePromise<LlmResponse | undefined | void>;

/** Runs before the model is called; a returned response is used instead of calling the model. May edit `request`. */
export type BeforeModelCallback = (input: { context: CallbackContext; request: LlmRequest }) => ModelCallbackResult;
/** Runs on each complete model response; a returned response replaces it. */
export type AfterModelCallback = (input: { context: CallbackContext; response: LlmResponse }) => ModelCallbackResult;
/** Runs when the model call fails; a returned response recovers, otherwise the run ends with an error event. */
export type OnModelErrorCallback = (input: {
  context: CallbackContext;
  request: LlmRequest;
  error: ToolsmithError;
}) => ModelCallbackResult;

/** Runs before a tool (arguments parsed, not yet validated); a returned object is the response and the tool is skipped. */
export type BeforeToolCallback = (input: { tool: Tool; args: Record<string, unknown>; context: ToolContext }) => ToolCallbackResult;
/** Runs after a tool succeeded; a returned object replaces its response. */
export type AfterToolCallback = (input: {
  tool: Tool;
  args: Record<string, unknown>;
  context: ToolContext;
  response: Record<string, unknown>;
}) => ToolCallbackResult;
/** Runs when validation or the tool failed; a returned object recovers (it becomes the response). */
export type OnToolErrorCallback = (input: {
  tool: Tool;
  args: Record<string, unknown>;
  context: ToolContext;
  error: ToolsmithError;
}) => ToolCallbackResult;

/**
 * Callbacks of an agent (or, as a plugin, of the whole runner). Each may be one function or a list run
 * in order; the first that returns a value short-circuits the rest. Plugins run before agent callbacks.
 */
export interface AgentCallbacks {
  beforeModel?: BeforeModelCallback | BeforeModelCallback[];
  afterModel?: AfterModelCallback | AfterModelCallback[];
  onModelError?: OnModelErrorCallback | OnModelErrorCallback[];
  beforeTool?: BeforeToolCallback | BeforeToolCallback[];
  afterTool?: AfterToolCallback | AfterToolCallback[];
  onToolError?: OnToolErrorCallback | OnToolErrorCallback[];
}

/** Ordered tool callbacks as the executor runs them (plugins first, then the agent's). */
export interface ToolCallbackChain {
  beforeTool: readonly BeforeToolCallback[];
  afterTool: readonly AfterToolCallback[];
  onToolError: readonly OnToolErrorCallback[];
}
