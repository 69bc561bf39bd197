import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { LlmRequest } from '../model/llm-request';
import { ToolContext } from '../tools/tool-context';
import { buildContents } from './contents-builder';
import { OfferedTools } from './tool-resolver';
import { State } from '../state/state';
import { createEventActions } from '../state/event-actions';

/**
 * Builds the request for one model call: instruction, conversation, the declarations of the tools
 * offered now, then each tool's `processRequest` hook. The declaration array is copied (hooks and
 * callbacks may edit it) but the declarations themselves are the tools' cached objects.
 */
export async function buildRequest(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): Promise<LlmRequest> {
  const request: LlmRequest = {
    contents: buildContents(context.session.events, agent.name, context.branch),
    tools: offered.declarations.slice(),
  };
  const instruction = typeof agent.instruction === 'function' ? await agent.instruction(context.readonlyContext()) : agent.instruction;
  if (instruction) request.systemInstruction = instruction;
  if (offered.providerTools.length > 0) request.providerTools = offered.providerTools.slice();
  if (agent.toolChoice) request.toolChoice = agent.toolChoice;
  if (agent.generationConfig) request.config = { ...agent.generationConfig };
  if (offered.processors.length > 0) {
    // Hooks get a context with their own throwaway actions: editing a request is not a state change.
    const actions = createEventActions();
    const hookContext = new ToolContext({
      functionCallId: '',
      invocationId: context.invocationId,
      agentName: agent.name,
      appName: context.services.appName,
      userId: context.session.userId,
      sessionId: context.session.id,
      branch: context.branch,
      state: new State(context.stateSnapshot(), actions.stateDelta),
      actions,
      signal: context.signal,
      memoryService: context.services.memoryService,
      artifactService: context.services.artifactService,
    });
    for (const tool of offered.processors) await tool.processRequest!(hookContext, request);
  }
  return request;
}
