import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { ConfirmationEditInvalidError } from '../errors/confirmation-edit-invalid-error';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { Content, FunctionCall } from '../model/content';
import { createEventActions } from '../state/event-actions';
import type { BaseTool } from '../tools/base-tool';
import { DEFAULT_ARGUMENT_LIMITS, argumentsError, parseArguments } from '../validation/argument-parser';
import type { JsonBreach } from '../validation/json-copy';
import { givenArgumentProblems } from './given-argument-problems';
import type { ToolContext } from '../tools/tool-context';
import { readConfirmationDecision } from './confirmation-decision';
import { judgeCall } from './confirmation-policy';
import { type PendingConfirmation, findPendingCalls } from './pending-calls';
import { InMemorySessionService, type InMemorySessionServiceData } from '../sessions/in-memory-session-service';
import { REQUEST_CONFIRMATION, isRecord } from './request-confirmation';

/**
 * Checks the edited arguments of every `edit` answer in the user's message against the tool the
 * waiting call names, as the executor checks a model's arguments (the argument limits, the JSON Schema
 * or Standard Schemas, then the DTO rules), but with no repairs: a person's edit runs as given or not at
 * all; then the confirmation policy, whose enforced `deny` refuses the edit too. Returns {@link ConfirmationEditInvalidError} for the first edit that fails, or `undefined`. Runs
 * after `checkFunctionResponses` (the answers are well-formed and pending), before anything is stored.
 * A tool no longer offered is not checked here: the call then gets `TOOL_NOT_FOUND`, as on approval.
 */
export async function checkEditedArguments(context: InvocationContext, message: Content, refusedEdits?: ReadonlyMap<object, JsonBreach>): Promise<ToolsmithError | undefined> {
  let pending: ReturnType<typeof findPendingCalls> | undefined;
  for (const part of message.parts) {
    const response = part.functionResponse;
    if (response?.name !== REQUEST_CONFIRMATION || !isRecord(response.response) || response.response.decision !== 'edit') continue;
    pending ??= findPendingCalls(context.session.events);
    const record = pending.confirmations.get(response.id);
    const decision = readConfirmationDecision(response.id, response.response);
    if (!record || decision instanceof ToolsmithError || !decision.args) continue; // refused earlier
    // The argument limits first, whatever tool the call names: the message's own limits left these out.
    const limitProblem = argumentLimitProblem((record.relay?.call ?? record.originalFunctionCall).name, decision.args, context, refusedEdits);
    if (limitProblem) return new ConfirmationEditInvalidError(response.id, (record.relay?.call ?? record.originalFunctionCall).name, [limitProblem]);
    const waiting = await waitingCall(context, record);
    if (!waiting) continue;
    const { agent, tool, call } = waiting;
    const problems = await argumentProblems(tool, decision.args, context, call.id, agent);
    if (problems) return new ConfirmationEditInvalidError(response.id, tool.name, problems);
  }
  return undefined;
}

/**
 * The agent, tool and call an edit of `record` is of: the call itself, or for a request an agent tool
 * relays, the innermost waiting call, followed through the inner sessions saved with each relayed request
 * (an agent tool nested in the inner agent relays its own inner agent's call), each inner agent's tool as
 * that agent offers it. An agent-backed tool (AgentTool) by its ability: this folder does not depend on the
 * agents'. `undefined` when a tool on the way is no longer offered.
 */
async function waitingCall(context: InvocationContext, record: PendingConfirmation): Promise<{ agent: LlmAgent; tool: BaseTool; call: FunctionCall } | undefined> {
  let agent = context.agent.rootAgent.findAgent(record.agentName) as LlmAgent | undefined;
  let call = record.originalFunctionCall;
  let relay = record.relay;
  for (;;) {
    if (!agent || !('tools' in agent)) return undefined;
    const offered = await context.services.tools.offered(agent, () => context.readonlyContext());
    const tool = offered.byName.get(call.name);
    if (!tool || !relay) return tool && { agent, tool, call };
    const inner = (tool as { agent?: LlmAgent }).agent;
    const sessions = InMemorySessionService.fromJSON(relay.sessions as InMemorySessionServiceData);
    const saved = await sessions.getSession({ appName: context.session.appName, userId: context.session.userId, sessionId: relay.sessionId });
    const next = saved && findPendingCalls(saved.events).confirmations.get(relay.requestId);
    if (!inner || !next) return undefined;
    agent = inner.findAgent(next.agentName) as LlmAgent | undefined;
    call = next.originalFunctionCall;
    relay = next.relay;
  }
}

/**
 * The problem when `edited` breaks the argument limits (depth, size, a forbidden key, not plain data),
 * else `undefined`. An edit the new message's check found breaking them (`refusedEdits`) stands in the
 * message as an empty object: its breach is the problem.
 */
function argumentLimitProblem(toolName: string, edited: Record<string, unknown>, context: InvocationContext, refusedEdits: ReadonlyMap<object, JsonBreach> | undefined): ArgumentProblem | undefined {
  const limits = context.services.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS;
  const breach = refusedEdits?.get(edited);
  if (breach) {
    const error = argumentsError(toolName, breach, limits);
    return { path: '', keyword: error.code, message: error.message };
  }
  try {
    parseArguments(toolName, edited, limits);
    return undefined;
  } catch (thrown) {
    if (!ToolsmithError.isInstance(thrown)) throw thrown;
    return { path: '', keyword: thrown.code, message: thrown.message };
  }
}

async function argumentProblems(tool: BaseTool, edited: Record<string, unknown>, context: InvocationContext, callId: string, agent: LlmAgent): Promise<readonly ArgumentProblem[] | undefined> {
  // The DTO rules may read the context; this one is thrown away with whatever it collected.
  const toolContext = () => context.toolContext(agent.name, callId, context.stateSnapshot(), createEventActions());
  const checked = await givenArgumentProblems(tool, edited, context.services.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS, toolContext);
  if ('problems' in checked) return checked.problems;
  return policyDenial(tool, checked.args, context, agent, toolContext);
}

/**
 * The confirmation policy (the agent's, else the runner's) is asked again about the edited call: an
 * enforced `deny` refuses the edit (the person is told the reason, the request stays open), so an edit
 * cannot run what the policy would have denied had the model asked for it. Other verdicts change nothing.
 */
async function policyDenial(tool: BaseTool, args: Record<string, unknown>, context: InvocationContext, agent: LlmAgent, toolContext: () => ToolContext): Promise<readonly ArgumentProblem[] | undefined> {
  const setting = agent.confirmationPolicy ?? context.services.confirmationPolicy;
  if (!setting) return undefined;
  const verdict = await judgeCall(setting, { tool, args, userId: context.session.userId, sessionId: context.session.id, context: toolContext() });
  if (verdict.mode !== 'enforce' || verdict.decision !== 'deny') return undefined;
  return [{ path: '', keyword: 'TOOL_CALL_DENIED', message: `the confirmation policy denies the call with these arguments: ${verdict.reason ?? ''}` }];
}
