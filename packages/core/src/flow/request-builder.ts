import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import type { LlmRequest } from '../model/llm-request';
import { buildContents } from './contents-builder';
import { compactedContents } from './compacted-contents';
import type { Content } from '../model/content';
import type { OfferedTools } from './tool-resolver';
import { createEventActions } from '../state/event-actions';
import { editableRequest } from './editable-request';

/**
 * Builds the request for one model call: instruction, conversation, the declarations of the tools
 * offered now, then each tool's `processRequest` hook. Without hooks the conversation is the session's
 * Content objects and the declarations are the tools' cached objects (the array is copied); hooks get a
 * request of their own ({@link editableRequest}: its own conversation, declarations, provider tools,
 * config and response schema), made only when an offered tool has a hook ({@link buildsOwnRequest}).
 * Model callbacks get that same copy, or one of their own when no hook made it (model-call.ts).
 *
 * Returns the request itself when no step is asynchronous (a fixed instruction, no hooks), which is
 * the usual case: the model call then starts without waiting a microtask for it.
 */
export function buildRequest(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): LlmRequest | Promise<LlmRequest> {
  if (typeof agent.instruction === 'function' || buildsOwnRequest(offered)) return buildRequestAsync(agent, context, offered);
  return assemble(agent, offered, conversation(agent, context), agent.instruction);
}

function assemble(agent: LlmAgent, offered: OfferedTools, contents: LlmRequest['contents'], instruction: string | undefined): LlmRequest {
  // With the instruction in the literal (the usual request has one): made with its room, not grown by a property store.
  const request: LlmRequest = instruction ? { contents, tools: offered.declarations.slice(), systemInstruction: instruction } : { contents, tools: offered.declarations.slice() };
  if (offered.providerTools.length > 0) request.providerTools = offered.providerTools.slice();
  if (agent.toolChoice) request.toolChoice = agent.toolChoice;
  if (agent.generationConfig) request.config = { ...agent.generationConfig };
  if (agent.resolvedOutputSchema) request.responseSchema = agent.resolvedOutputSchema.request;
  return request;
}

async function buildRequestAsync(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): Promise<LlmRequest> {
  const contents = conversation(agent, context);
  const instruction = typeof agent.instruction === 'function' ? await agent.instruction(context.readonlyContext()) : agent.instruction;
  const request = assemble(agent, offered, contents, instruction);
  if (buildsOwnRequest(offered)) {
    // The hooks edit a conversation, declarations, config and schema of their own: not the session's events, the tools' cached declarations or the agent's.
    const own = editableRequest(request);
    // Hooks get a context with their own throwaway actions: editing a request is not a state change.
    const hookContext = context.toolContext(agent.name, '', context.stateSnapshot(), createEventActions());
    BEFORE_HOOKS.set(own, contents);
    for (const tool of offered.processors) await tool.processRequest!(hookContext, own);
    return own;
  }
  return request;
}

/** The conversation a request's `processRequest` hooks were given (the session's, never edited), by the hooks' copy. */
const BEFORE_HOOKS = new WeakMap<LlmRequest, Content[]>();

/**
 * The conversation `request` held before the tools' `processRequest` hooks edited it (the session's Content
 * objects, which nothing edits), or `undefined` for a request no hook got: what a file the hooks put in
 * is told from (flow/request-files-check.ts).
 */
export function conversationBeforeHooks(request: LlmRequest): readonly Content[] | undefined {
  return BEFORE_HOOKS.get(request);
}

/**
 * True when {@link buildRequest} returns a copy of its own ({@link editableRequest}), which model
 * callbacks may then edit without copying it again: when an offered tool has a `processRequest` hook.
 */
export function buildsOwnRequest(offered: OfferedTools): boolean {
  return offered.processors.length > 0;
}

/** The conversation the agent's model is sent: every event, or under `compaction` (the agent's, else the runner's) the compacted history. */
function conversation(agent: LlmAgent, context: InvocationContext): Content[] {
  const compaction = agent.compaction ?? context.services.compaction;
  if (!compaction) return buildContents(context.session.events, agent.name, context.branch);
  return compactedContents(context.session.events, agent.name, context.branch, compaction);
}
