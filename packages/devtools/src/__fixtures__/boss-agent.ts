// An agent tool inside an agent tool: `ops` calls `boss`, whose model calls `janitor`, whose `wipe` needs
// approval. The innermost request reaches the client through both. Offline on ScriptedModel.
import { AgentTool, LlmAgent, type LlmRequest } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn, wipeTool } from '@toolsmith/core/testing';
import { janitorTurn, lastResponse, lastText } from './janitor-agent';

/** The disks wiped, for the tests. */
export const wiped: string[] = [];

/** A model that passes the request on to the agent tool `tool`, then reports its answer. */
const delegateTo = (tool: string) => (request: LlmRequest): ScriptedTurn => {
  const response = lastResponse(request);
  if (response) return `The ${tool} reports: ${JSON.stringify(response.response)}`;
  return { calls: [{ name: tool, args: { request: lastText(request) } }] };
};

const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: new ScriptedModel(janitorTurn, { modelName: 'janitor-script' }), tools: [wipeTool(wiped)] });
const boss = new LlmAgent({ name: 'boss', description: 'Delegates cleaning.', model: new ScriptedModel(delegateTo('janitor'), { modelName: 'boss-script' }), tools: [new AgentTool({ agent: janitor })] });

export const agent = new LlmAgent({ name: 'ops', model: new ScriptedModel(delegateTo('boss'), { modelName: 'ops-script' }), tools: [new AgentTool({ agent: boss })] });
