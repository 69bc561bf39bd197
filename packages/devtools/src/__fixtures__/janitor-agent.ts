// An agent that calls another agent as a tool (AgentTool), whose `wipe` tool needs approval: the inner
// approval reaches the dev tools like any request. Offline on ScriptedModel.
import { AgentTool, type FunctionResponse, LlmAgent, type LlmRequest } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn, wipeTool } from '@toolsmith/core/testing';

/** The disks wiped, for the tests. */
export const wiped: string[] = [];

const wipe = wipeTool(wiped);

export const lastResponse = (request: LlmRequest): FunctionResponse | undefined => request.contents[request.contents.length - 1].parts.find((p) => p.functionResponse)?.functionResponse;
export const lastText = (request: LlmRequest) => request.contents[request.contents.length - 1].parts.map((p) => p.text ?? '').join(' ');

/** The janitor's model: wipes the disk the request names, then reports what the wipe answered. */
export function janitorTurn(request: LlmRequest): ScriptedTurn {
  const response = lastResponse(request);
  if (response) {
    const body = response.response as { wiped?: string; result?: { wiped?: string }; argumentsEditedByUser?: unknown; error?: { message: string } };
    if (response.isError) return `Not wiped: ${body.error?.message}`;
    // An edited call answers `{ result, argumentsEditedByUser }`.
    return `Wiped ${(body.argumentsEditedByUser ? body.result?.wiped : body.wiped) ?? JSON.stringify(body)}.`;
  }
  return { calls: [{ name: 'wipe', args: { disk: /\b(sd[a-z])\b/.exec(lastText(request))?.[1] ?? 'sda' } }] };
}

function mainTurn(request: LlmRequest): ScriptedTurn {
  const response = lastResponse(request);
  if (response) return `The janitor reports: ${JSON.stringify(response.response)}`;
  return { calls: [{ name: 'janitor', args: { request: lastText(request) } }] };
}

const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model: new ScriptedModel(janitorTurn, { modelName: 'janitor-script' }), tools: [wipe] });

export const agent = new LlmAgent({ name: 'ops', model: new ScriptedModel(mainTurn, { modelName: 'ops-script' }), tools: [new AgentTool({ agent: janitor })] });
