import type { BaseAgent } from '../agents/base-agent';
import { LlmAgent } from '../agents/llm-agent';
import { LoopAgent } from '../agents/loop-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { findPendingCalls } from '../confirmation/pending-calls';
import { isPauseRequestName } from '../confirmation/request-confirmation';
import type { Content } from '../model/content';
import type { Session } from '../sessions/session';

/**
 * The agent that must continue when `message` answers a confirmation request: the one whose model
 * made the waiting call (only it offers that tool). Usually that is the agent that spoke last anyway,
 * but not when the conversation moved to another agent before the answer came. Inside workflow agents
 * it is the outermost workflow around that agent, which resumes where it paused (see workflow-resume.ts).
 * `undefined` when the message answers no pending request.
 */
export function answeringAgent(root: BaseAgent, session: Session, message: Content | undefined): BaseAgent | undefined {
  // A plain loop: every run asks this, and nearly every message answers nothing.
  const ids: string[] = [];
  for (const part of message?.parts ?? []) if (isPauseRequestName(part.functionResponse?.name)) ids.push(part.functionResponse!.id);
  if (ids.length === 0) return undefined;
  const pending = findPendingCalls(session.events).confirmations;
  for (const id of ids) {
    const record = pending.get(id);
    const agent = record && root.findAgent(record.agentName);
    if (agent instanceof LlmAgent) return resumeTarget(agent);
  }
  return undefined;
}

/** The agent itself, or the outermost workflow agent (`SequentialAgent`, `LoopAgent`) directly around it. */
function resumeTarget(agent: LlmAgent): BaseAgent {
  let target: BaseAgent = agent;
  while (target.parentAgent instanceof SequentialAgent || target.parentAgent instanceof LoopAgent) target = target.parentAgent;
  return target;
}
