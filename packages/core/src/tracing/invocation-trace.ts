import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { ContainedTracer } from './contained-tracer';
import type { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import type { ToolCallOutcome } from '../internal/tool-executor';
import type { Content, FunctionCall } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import type { Model } from '../model/model';
import type { BaseTool } from '../tools/base-tool';
import { ChatSpan } from './chat-span';
import { GenAiOperation, PAUSED_TRACEPARENT_KEY, TraceAttribute } from './gen-ai-conventions';
import { inputMessagesJson, systemInstructionsJson } from './gen-ai-messages';
import type { OtelApiModule } from './otel-api';
import { formatTraceparent, pausedSpanContexts } from './paused-span-links';
import { markFailed } from './span-status';
import { setUsageAttributes } from './usage-attributes';
import type { Usage } from '../model/llm-response';
import { addUsage } from '../model/usage-total';
import { thrownMessage } from '../errors/thrown-message';
import { runFailure } from '../errors/run-failure';

/** What an {@link InvocationTrace} is made of (see `Tracing.startInvocation`). */
export interface InvocationTraceInit {
  api: OtelApiModule;
  /** The tracer, every call into it contained: its spans' methods never throw. */
  tracer: ContainedTracer;
  /** The runner's span around the invocation, already started (by `tracer`). */
  span: Span;
  /** The context the invocation started in (its span's parent). */
  parent: Context;
  recordContent: boolean;
}

/** What {@link InvocationTrace.started} records once the session and the agent are known. */
export interface InvocationStart {
  invocationId: string;
  sessionId: string;
  agentName: string;
  /** The session's events, where the pauses a resuming message answers are found. */
  events: readonly Event[];
  newMessage?: Content;
}

/**
 * The spans of one traced invocation: the runner's span, then `invoke_agent` per agent turn, `chat` per
 * model call and `execute_tool` per function call, each under the agent turn that made it. Agent turns
 * of one invocation nest strictly (a transfer runs inside the turn that transferred), so the current
 * parent is one field, restored when a turn ends. Only made when a span would record (see `Tracing`):
 * untraced invocations pay for nothing here.
 */
export class InvocationTrace {
  private readonly api: OtelApiModule;
  private readonly tracer: ContainedTracer;
  private readonly span: Span;
  private readonly recordContent: boolean;
  private sessionId = '';
  private runUsage: Usage | undefined;
  /** The context new spans start in: the runner's span, or the running agent turn's. */
  private current: Context;

  constructor(init: InvocationTraceInit) {
    this.api = init.api;
    this.tracer = init.tracer;
    this.span = init.span;
    this.recordContent = init.recordContent;
    this.current = init.api.trace.setSpan(init.parent, init.span);
  }

  /** Names the invocation, and links its span to the spans of the paused invocations the message resumes. */
  started(start: InvocationStart): void {
    this.sessionId = start.sessionId;
    this.span.setAttributes({
      [TraceAttribute.INVOCATION_ID]: start.invocationId,
      [TraceAttribute.CONVERSATION_ID]: start.sessionId,
      [TraceAttribute.AGENT_NAME]: start.agentName,
    });
    if (start.newMessage === undefined) return;
    for (const paused of pausedSpanContexts(start.events, start.newMessage)) this.span.addLink({ context: paused });
  }

  /** An event the invocation hands out: an error event marks the runner's span failed; the last `runUsage` is the run's total. */
  relay(event: Event): void {
    if (event.errorCode !== undefined) markFailed(this.api, this.span, event.errorCode, event.errorMessage, this.recordContent);
    if (event.runUsage) this.runUsage = event.runUsage;
  }

  /** The invocation is over: ends the runner's span, with the invocation's total token usage. */
  end(): void {
    this.endWithUsage(this.span, this.runUsage);
  }

  /** Before an event is stored: a pause event keeps this invocation's span context, for the resume to link to. */
  stamp(event: Event): void {
    if (!event.longRunningToolIds?.length) return;
    event.customMetadata = { ...event.customMetadata, [PAUSED_TRACEPARENT_KEY]: formatTraceparent(this.span.spanContext()) };
  }

  /** Runs one turn of an LLM agent inside its `invoke_agent {agent}` span. */
  async *agentTurn(agent: LlmAgent, events: AsyncGenerator<Event, void, undefined>): AsyncGenerator<Event, void, undefined> {
    const attributes: Attributes = {
      [TraceAttribute.OPERATION_NAME]: GenAiOperation.INVOKE_AGENT,
      [TraceAttribute.AGENT_NAME]: agent.name,
      [TraceAttribute.CONVERSATION_ID]: this.sessionId,
      [TraceAttribute.PROVIDER_NAME]: agent.model.telemetryProviderName ?? agent.model.provider,
      [TraceAttribute.REQUEST_MODEL]: agent.model.modelName,
    };
    if (agent.description) attributes[TraceAttribute.AGENT_DESCRIPTION] = agent.description;
    const outer = this.current;
    const span = this.tracer.startSpan(`${GenAiOperation.INVOKE_AGENT} ${agent.name}`, { kind: this.api.SpanKind.INTERNAL, attributes }, outer);
    this.current = this.api.trace.setSpan(outer, span);
    // The turn's model calls (and those of agents it transferred to, which run inside it), summed.
    let usage: Usage | undefined;
    try {
      for await (const event of events) {
        if (event.errorCode !== undefined) markFailed(this.api, span, event.errorCode, event.errorMessage, this.recordContent);
        if (event.usage && !event.partial) usage = addUsage(usage, event.usage);
        yield event;
      }
    } catch (thrown) {
      // The turn failed by a throw (a model callback's, say): the run ends on an error event made around
      // the agent, with this code and message; the agent's span says so as it does for its own error events.
      const failure = runFailure(thrown);
      markFailed(this.api, span, failure.code, failure.message, this.recordContent);
      throw thrown;
    } finally {
      this.current = outer;
      this.endWithUsage(span, usage);
    }
  }

  /** Ends `span` with the `gen_ai.usage.*` attributes of `usage`, when there is any. */
  private endWithUsage(span: Span, usage: Usage | undefined): void {
    if (usage) {
      const attributes: Attributes = {};
      setUsageAttributes(attributes, usage);
      span.setAttributes(attributes);
    }
    span.end();
  }

  /**
   * Starts the `chat {model}` span of one model call: of the agent's model, or of `compaction.model`
   * for a compaction's summarizing call (marked `toolsmith.compaction`).
   */
  startChat(agent: LlmAgent, request: LlmRequest, compaction?: { model: Model }): ChatSpan {
    const called = compaction?.model ?? agent.model;
    const model = request.model ?? called.modelName;
    const attributes: Attributes = {
      [TraceAttribute.OPERATION_NAME]: GenAiOperation.CHAT,
      [TraceAttribute.PROVIDER_NAME]: called.telemetryProviderName ?? called.provider,
      [TraceAttribute.REQUEST_MODEL]: model,
      [TraceAttribute.CONVERSATION_ID]: this.sessionId,
    };
    if (compaction) attributes[TraceAttribute.COMPACTION] = true;
    if (this.recordContent) {
      attributes[TraceAttribute.INPUT_MESSAGES] = inputMessagesJson(request.contents);
      if (request.systemInstruction) attributes[TraceAttribute.SYSTEM_INSTRUCTIONS] = systemInstructionsJson(request.systemInstruction);
    }
    const span = this.tracer.startSpan(`${GenAiOperation.CHAT} ${model}`, { kind: this.api.SpanKind.CLIENT, attributes }, this.current);
    return new ChatSpan(this.api, span, this.api.trace.setSpan(this.current, span), this.recordContent);
  }

  /**
   * Runs one function call inside its `execute_tool {tool}` span, which is the active context while the
   * tool runs (spans the tool makes, e.g. of its HTTP requests, nest under it when a context manager is
   * registered). Parallel calls each get their own span under the same agent turn: siblings.
   */
  toolCall(call: FunctionCall, tool: BaseTool | undefined, run: () => Promise<ToolCallOutcome>): Promise<ToolCallOutcome> {
    const { api } = this;
    const attributes: Attributes = {
      [TraceAttribute.OPERATION_NAME]: GenAiOperation.EXECUTE_TOOL,
      [TraceAttribute.TOOL_NAME]: call.name,
      [TraceAttribute.TOOL_CALL_ID]: call.id,
      [TraceAttribute.TOOL_TYPE]: 'function',
    };
    if (tool?.description) attributes[TraceAttribute.TOOL_DESCRIPTION] = tool.description;
    if (this.recordContent) attributes[TraceAttribute.TOOL_CALL_ARGUMENTS] = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const span = this.tracer.startSpan(`${GenAiOperation.EXECUTE_TOOL} ${call.name}`, { kind: api.SpanKind.INTERNAL, attributes }, this.current);
    return api.context.with(api.trace.setSpan(this.current, span), run).then(
      (outcome) => {
        // The code and message the model was sent (the error itself may have changed since it was checked).
        if (outcome.error) {
          const sent = (outcome.response.response as { error?: { code?: unknown; message?: unknown } }).error;
          markFailed(api, span, String(sent?.code ?? 'TOOL_EXECUTION_FAILED'), String(sent?.message ?? ''), this.recordContent);
        }
        if (outcome.policy) {
          span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_POLICY_DECISION, outcome.policy.decision);
          span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_POLICY_MODE, outcome.policy.mode);
          if (outcome.policy.error) span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_POLICY_ERROR, outcome.policy.error.code);
        }
        const { innerCalls } = outcome.response;
        const confirmation = outcome.response.confirmation ?? outcome.settled;
        if (confirmation && confirmation.by !== 'user') {
          span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_BY, confirmation.by);
          if (confirmation.grantId !== undefined) span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_GRANT_ID, confirmation.grantId);
        }
        if (innerCalls) {
          span.setAttribute(TraceAttribute.TOOL_INNER_CALLS, innerCalls.length);
          const grantIds = innerCalls.flatMap((inner) => (inner.confirmation?.by === 'grant' && inner.confirmation.grantId !== undefined ? [inner.confirmation.grantId] : []));
          if (grantIds.length > 0) span.setAttribute(TraceAttribute.TOOL_INNER_CALLS_GRANT_IDS, grantIds);
        }
        if (outcome.confirmationRequested) span.setAttribute(TraceAttribute.TOOL_CONFIRMATION_REQUESTED, true);
        else if (this.recordContent) span.setAttribute(TraceAttribute.TOOL_CALL_RESULT, JSON.stringify(outcome.response.response));
        span.end();
        return outcome;
      },
      (thrown: unknown) => {
        // The executor never throws for tool failures; this is a bug of ours, still worth seeing in the trace.
        markFailed(api, span, 'INTERNAL_ERROR', thrownMessage(thrown), this.recordContent);
        span.end();
        throw thrown;
      },
    );
  }
}
