import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';
import { type ToolContext, ToolsmithError } from '@toolsmith/core';

/** What {@link requestMcpSampling} asks the client's model: MCP's `sampling/createMessage` parameters. */
export type McpSamplingRequest = CreateMessageRequestParams;

/** The client's answer to {@link requestMcpSampling}: MCP's `sampling/createMessage` result. */
export type McpSamplingResult = CreateMessageResult;

type Sampler = (request: McpSamplingRequest) => Promise<McpSamplingResult>;

const samplers = new WeakMap<ToolContext, Sampler>();

/**
 * Asks the model of the MCP client that made the call `context` belongs to (MCP sampling,
 * `sampling/createMessage`), and returns its answer. The client may show the request to its user
 * first; the call waits as long as for a confirmation (`serveMcp`'s `confirmationTimeoutMs`).
 * Throws `MCP_SAMPLING_UNSUPPORTED` when the call did not come over MCP or the client does not declare
 * the `sampling` capability, and `MCP_SAMPLING_FAILED` when the client refused or did not answer in time.
 *
 * @example
 * ```ts
 * @Tool()
 * async summarize(@Param('text') text: string, ctx: ToolContext) {
 *   const answer = await requestMcpSampling(ctx, {
 *     messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
 *     maxTokens: 200,
 *   });
 *   return { summary: answer.content.type === 'text' ? answer.content.text : '' };
 * }
 * ```
 */
export async function requestMcpSampling(context: ToolContext, request: McpSamplingRequest): Promise<McpSamplingResult> {
  const sample = samplers.get(context);
  if (!sample) {
    throw new ToolsmithError('MCP_SAMPLING_UNSUPPORTED', "requestMcpSampling: this tool call did not come over MCP, so there is no client model to ask.");
  }
  return sample(request);
}

/** Connects a call's context to its MCP client's sampling (used by the MCP tool server). */
export function attachSampler(context: ToolContext, sample: Sampler): void {
  samplers.set(context, sample);
}
