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
  /** Run before each model call, with the built request; the first returned response replaces the call. */
  beforeModel?: BeforeModelCallback | BeforeModelCallback[];
  /** Run on each complete response, also one from beforeModel or onModelError (not partials); the first response returned replaces it. */
  afterModel?: AfterModelCallback | AfterModelCallback[];
  /** Run when the model call throws (not when the run is aborted); the first returned response recovers the call. */
  onModelError?: OnModelErrorCallback | OnModelErrorCallback[];
  /** Run before each tool call, once its arguments parsed; the first returned object answers the call and the tool is skipped. */
  beforeTool?: BeforeToolCallback | BeforeToolCallback[];
  /** Run after a tool succeeded (not after a beforeTool answer or a confirmation request); the first object returned replaces it. */
  afterTool?: AfterToolCallback | AfterToolCallback[];
  /** Run when a call fails (arguments, confirmation denied, tool error or timeout); the first returned object becomes the response. */
  onToolError?: OnToolErrorCallback | OnToolErrorCallback[];
}

/** Ordered tool callbacks as the executor runs them (plugins first, then the agent's). */
export interface ToolCallbackChain {
  /** Run before validation, in order; the first that returns an object answers the call and the tool is skipped. */
  beforeTool: readonly BeforeToolCallback[];
  /** Run after the tool succeeded, in order; the first that returns an object replaces its response. */
  afterTool: readonly AfterToolCallback[];
  /** Run when the call fails, in order; the first that returns an object recovers and becomes the response. */
  onToolError: readonly OnToolErrorCallback[];
}
