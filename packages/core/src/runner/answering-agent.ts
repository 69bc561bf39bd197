import type { BaseAgent } from '../agents/base-agent';
import { LlmAgent } from '../agents/llm-agent';
import { findPendingCalls } from '../confirmation/pending-calls';
import { REQUEST_CONFIRMATION } from '../confirmation/request-confirmation';
import { Content } from '../model/content';
import { Session } from '../sessions/session';

/**
 * The agent that must continue when `message` answers a confirmation request: the one whose model
 * made the waiting call (only it offers that tool). Usually that is the agent that spoke last anyway,
 * but not when the conversation moved to another agent before the answer came. `undefined` when the
 * message answers no pending request.
 */
export function answeringAgent(root: BaseAgent, session: Session, message: Content | undefined): BaseAgent | undefined {
  const ids = (message?.parts ?? []).flatMap((part) => (part.functionResponse?.name === REQUEST_CONFIRMATION ? [part.functionResponse.id] : []));
  if (ids.length === 0) return undefined;
  const pending = findPendingCalls(session.events).confirmations;
  for (const id of ids) {
    const record = pending.get(id);
    const agent = record && root.findAgent(record.agentName);
    if (agent instanceof LlmAgent) return agent;
  }
  return undefined;
}
