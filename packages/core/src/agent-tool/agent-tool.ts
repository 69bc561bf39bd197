import { agentFailedMessage, agentToolOutsideRunnerMessage } from '../errors/messages';
import type { BaseAgent } from '../agents/base-agent';
import type { AgentBackedTool } from '../agents/agent-backed-tool';
import { AgentToolConfirmationError } from '../errors/agent-tool-confirmation-error';
import { ToolsmithError } from '../errors/toolsmith-error';
import { StateConflictError } from '../errors/state-conflict-error';
import { type ConfirmationAnswer, confirmationResponse } from '../confirmation/confirmation-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import type { Content } from '../model/content';
import type { Session } from '../sessions/session';
import type { ToolConfirmation } from '../state/event-actions';
import type { Event } from '../events/event';
import type { JsonSchema } from '../model/json-schema';
import { invocationOf } from '../flow/invocation-registry';
import { OUTPUT_INVALID } from '../flow/structured-output';
import { runInvocation } from '../runner/run-invocation';
import { recordInnerCalls } from '../internal/recorded-inner-calls';
import { innerCallRecords } from './inner-call-records';
import { answeringAgent } from '../runner/answering-agent';
import { InMemorySessionService, type InMemorySessionServiceData } from '../sessions/in-memory-session-service';
import { StatePrefix } from '../state/state';
import type { StateOp } from '../state/state-ops';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';

/** Options of {@link AgentTool}. */
export interface AgentToolOptions {
  /** The agent to run as a tool; its name and description become the tool's. */
  agent: BaseAgent;
  /** Schema of the tool's arguments; the agent receives them as JSON text. Default `{ request: string }`. */
  inputSchema?: JsonSchema;
  /** The agent's answer ends the caller's turn (no further model call summarizes it). */
  skipSummarization?: boolean;
}

const DEFAULT_INPUT: JsonSchema = {
  type: 'object',
  properties: { request: { type: 'string', description: 'What to ask the agent.' } },
  required: ['request'],
  additionalProperties: false,
};

/**
 * Runs an agent as a tool: the calling agent keeps the conversation and gets the agent's final text
 * as the result (`{ result: text }`), or with the agent's `outputSchema` its validated answer object. The agent runs in a fresh session that starts with the caller's
 * state (without `temp:` keys); its state changes are written back to the caller's state. A call of
 * the agent that needs the user's confirmation pauses the caller's run with an ordinary confirmation
 * request for this tool's call (`relayed` names the inner call), and the answer, any of the four
 * decisions, resumes the agent where it stopped (docs/confirmation.md, "Agents used as tools"). A call
 * that needs the user's credential cannot be relayed: the `AgentTool` call then fails with
 * {@link AgentToolConfirmationError} (`AGENT_TOOL_CONFIRMATION_UNSUPPORTED`).
 *
 * @example
 * ```ts
 * const summarizer = new LlmAgent({ name: 'summarizer', description: 'Summarizes text.', model });
 * new LlmAgent({ name: 'main', model, tools: [new AgentTool({ agent: summarizer })] });
 * ```
 */
export class AgentTool extends BaseTool implements AgentBackedTool {
  /** The agent's name: the model calls the tool by it. */
  readonly name: string;
  /** The agent's description, shown to the model as the tool's. */
  readonly description: string;
  /** The arguments: `options.inputSchema`, or by default `{ request: string }`, whose text alone is sent to the agent. */
  readonly parameters: JsonSchema;
  /** The agent this tool runs. */
  readonly agent: BaseAgent;
  private readonly skipSummarization: boolean;

  constructor(options: AgentToolOptions) {
    super();
    this.agent = options.agent;
    this.name = options.agent.name;
    this.description = options.agent.description;
    this.parameters = options.inputSchema ?? DEFAULT_INPUT;
    this.skipSummarization = options.skipSummarization ?? false;
  }

  /**
   * Runs the agent on the arguments in a fresh session seeded with the caller's state (or, answering a
   * relayed request, in the session saved with it), copies its state changes back and returns its final
   * text (or its `outputSchema` answer); relays the agent's next confirmation request when it pauses.
   * Throws outside a runner, when the agent ends with an error, or when one of its calls needs a credential.
   */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const parent = invocationOf(context);
    if (!parent) {
      throw new ToolsmithError('AGENT_TOOL_OUTSIDE_RUNNER', agentToolOutsideRunnerMessage(this.name));
    }
    const relay = context.toolConfirmation?.relay;
    let sessions: InMemorySessionService;
    let session: Session;
    let newMessage: Content;
    if (relay) {
      // The person answered the inner agent's request: resume the inner session saved at the pause, and pass the
      // decision on, in the inner agent whose model made the call (a sub-agent the inner agent transferred to).
      sessions = InMemorySessionService.fromJSON(relay.sessions as InMemorySessionServiceData);
      const saved = await sessions.getSession({ appName: context.appName, userId: context.userId, sessionId: relay.sessionId });
      const pending = saved && findPendingCalls(saved.events).confirmations.get(relay.requestId);
      if (!saved || !pending) throw new ToolsmithError('INTERNAL_ERROR', agentFailedMessage(this.agent.name, `its saved request "${relay.requestId}" cannot be resumed`));
      session = saved;
      newMessage = confirmationResponse(pending, innerAnswer(context.toolConfirmation!));
    } else {
      sessions = new InMemorySessionService();
      const state = Object.fromEntries(Object.entries(context.state.toObject()).filter(([k]) => !k.startsWith(StatePrefix.TEMP)));
      // The caller's session id: a remembered `session` grant given on a relayed request is the conversation's.
      session = await sessions.createSession({ appName: context.appName, userId: context.userId, sessionId: context.sessionId, state });
      newMessage = { role: 'user', parts: [{ text: this.parameters === DEFAULT_INPUT ? String(args.request) : JSON.stringify(args) }] };
    }

    let answer: unknown = '';
    // An answer that broke the agent's outputSchema is retried inside the run; only the last one fails the call.
    let outputInvalid: Event | undefined;
    const innerSession = async () => (await sessions.getSession({ appName: context.appName, userId: context.userId, sessionId: session.id }))!;
    try {
      for await (const event of runInvocation({ ...parent.services, sessionService: sessions }, { terms: { agent: (saved, checked) => answeringAgent(this.agent, saved, checked) ?? this.agent }, session, newMessage, signal: context.signal })) {
        if (event.errorCode === OUTPUT_INVALID) {
          outputInvalid = event;
          continue;
        }
        if (event.errorCode) throw new ToolsmithError(event.errorCode, agentFailedMessage(this.agent.name, event.errorMessage));
        if (!event.partial) outputInvalid = undefined;
        for (const [key, value] of Object.entries(event.actions.stateDelta)) {
          if (!key.startsWith(StatePrefix.TEMP)) copyStateWrite(context, key, value, event.actions.stateOps?.[key]);
        }
        const eventText = event.text();
        // With an outputSchema the answer is the validated object (a plain object becomes the response itself).
        if (event.output !== undefined) answer = event.output;
        else if (eventText && !event.partial) answer = eventText;
      }
    } catch (thrown) {
      // The call fails, but what ran inside it on a grant or a policy verdict is still listed on its response.
      recordInnerCalls(context, innerCallRecords((await innerSession()).events));
      throw thrown;
    }
    const ended = await innerSession();
    // The whole inner session (what ran before an earlier pause included): the response lists its granted and policy-decided calls.
    recordInnerCalls(context, innerCallRecords(ended.events));
    // The inner agent waits for the person: relay its (first) open request to the outer run's client, with the inner session saved.
    const waiting = [...findPendingCalls(ended.events).confirmations.values()];
    if (waiting.some((request) => request.auth)) throw new AgentToolConfirmationError(this.agent.name, [...new Set(waiting.filter((r) => r.auth).map((r) => r.originalFunctionCall.name))]);
    if (waiting.length > 0) {
      const [next] = waiting;
      context.requestConfirmation({ hint: next.prompt.hint, payload: next.prompt.payload, payloadSchema: next.prompt.payloadSchema, editable: next.prompt.editable });
      // Who asked the inner agent decides whether "always allow" applies to the relayed request.
      if (next.askedBy) context.actions.requestedToolConfirmations![context.functionCallId].askedBy = next.askedBy;
      else delete context.actions.requestedToolConfirmations![context.functionCallId].askedBy;
      // A request the inner agent itself relays (an agent tool nested in it) names the innermost waiting call: that is what the person decides on.
      context.actions.requestedToolConfirmations![context.functionCallId].relay = {
        agent: next.relay?.agent ?? next.agentName,
        call: next.relay?.call ?? next.originalFunctionCall,
        requestId: next.requestId,
        sessionId: session.id,
        sessions: sessions.toJSON(),
      };
      return { status: 'waiting for the person' }; // not sent to the model: the call waits
    }
    if (outputInvalid) throw new ToolsmithError(OUTPUT_INVALID, agentFailedMessage(this.agent.name, outputInvalid.errorMessage));
    if (this.skipSummarization) context.actions.skipSummarization = true;
    return answer;
  }
}

/** The inner request's answer: the decision the person gave on the relayed request. */
function innerAnswer(confirmation: ToolConfirmation): ConfirmationAnswer {
  const payload = confirmation.payload === undefined ? {} : { payload: confirmation.payload };
  switch (confirmation.decision) {
    case 'edit':
      return { decision: 'edit', args: confirmation.args!, ...payload };
    case 'reject':
      return { decision: 'reject', ...(confirmation.message === undefined ? {} : { message: confirmation.message }), ...payload };
    case 'respond':
      return { decision: 'respond', result: confirmation.result, ...payload };
    default:
      return { decision: 'approve', ...(confirmation.remember === undefined ? {} : { remember: confirmation.remember }), ...payload };
  }
}

/**
 * Repeats one of the inner agent's state writes on the caller's state, as the same kind of write: an
 * increment or a compare-and-set stays one, so the caller's store applies it in its append (against other
 * sessions' writes), not as a plain write of the value the inner session reached.
 */
function copyStateWrite(context: ToolContext, key: string, value: unknown, op: StateOp | undefined): void {
  if (op?.op === 'increment') context.state.increment(key, op.by);
  else if (op?.op !== 'compareAndSet') context.state.set(key, value);
  // The inner session started from the caller's state and its writes were copied as they came, so the
  // caller sees what the inner store checked; anything else means another writer got in between.
  else if (!context.state.compareAndSet(key, op.expected, value)) throw new StateConflictError(key, op.expected ?? null, context.state.get(key) ?? null);
}
