import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import type { LlmRequest } from '../model/llm-request';
import { buildContents } from './contents-builder';
import { compactedContents } from './compacted-contents';
import type { Content } from '../model/content';
import type { OfferedTools } from './tool-resolver';
import { createEventActions } from '../state/event-actions';
import { requestWithOwnTools } from './editable-request';

/**
 * Builds the request for one model call: instruction, conversation, the declarations of the tools
 * offered now, then each tool's `processRequest` hook. Without hooks the declarations are the tools'
 * cached objects (the array is copied); hooks get their own copies of them, of the provider tools, the
 * config and the response schema ({@link requestWithOwnTools}), made only when an offered tool has a
 * hook. Model callbacks get a deep copy of the request (model-call.ts, editable-request.ts), made only
 * when one is registered.
 *
 * Returns the request itself when no step is asynchronous (a fixed instruction, no hooks), which is
 * the usual case: the model call then starts without waiting a microtask for it.
 */
export function buildRequest(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): LlmRequest | Promise<LlmRequest> {
  if (typeof agent.instruction === 'function' || offered.processors.length > 0) return buildRequestAsync(agent, context, offered);
  return assemble(agent, offered, conversation(agent, context), agent.instruction);
}

function assemble(agent: LlmAgent, offered: OfferedTools, contents: LlmRequest['contents'], instruction: string | undefined): LlmRequest {
  const request: LlmRequest = { contents, tools: offered.declarations.slice() };
  if (instruction) request.systemInstruction = instruction;
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
  if (offered.processors.length > 0) {
    // The hooks edit declarations, config and schema of their own, not the tools' cached ones (nor the agent's).
    const own = requestWithOwnTools(request);
    // Hooks get a context with their own throwaway actions: editing a request is not a state change.
    const hookContext = context.toolContext({
      agentName: agent.name,
      functionCallId: '',
      stateBase: context.stateSnapshot(),
      actions: createEventActions(),
    });
    for (const tool of offered.processors) await tool.processRequest!(hookContext, own);
    return own;
  }
  return request;
}

/** The conversation the agent's model is sent: every event, or under `compaction` (the agent's, else the runner's) the compacted history. */
function conversation(agent: LlmAgent, context: InvocationContext): Content[] {
  const compaction = agent.compaction ?? context.services.compaction;
  if (!compaction) return buildContents(context.session.events, agent.name, context.branch);
  return compactedContents(context.session.events, agent.name, context.branch, compaction);
}
