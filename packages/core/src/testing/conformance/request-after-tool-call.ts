import { type AgentToolEntry, LlmAgent } from '../../agents/llm-agent';
import type { Event } from '../../events/event';
import type { Model } from '../../model/model';
import { Runner } from '../../runner/runner';
import { type RecordedRequest, startWireServer } from '../wire-server';
import type { ConformanceTurn, WireCodec } from './wire-codec';

/** Options of {@link requestAfterToolCall}. */
export interface RequestAfterToolCallOptions {
  /** The adapter under test, pointed at the local server's base URL. */
  createModel(baseURL: string): Model;
  /** How the provider's replies look on the wire. */
  wire: WireCodec;
  /** The tools the agent offers. */
  tools: AgentToolEntry[];
  /** The call the model makes in its first reply. */
  call: NonNullable<ConformanceTurn['calls']>[number];
}

/**
 * Runs one tool round through a {@link Runner} on a real adapter against a local wire server: the model
 * makes `options.call`, the runner runs the tool, the model then answers with text. Returns the request
 * that carried the tool's result back to the provider, for wire tests of how an adapter sends results
 * (e.g. files from tools). Fails when the run does not end on the model's answer.
 */
export async function requestAfterToolCall(options: RequestAfterToolCallOptions): Promise<RecordedRequest> {
  const requests: RecordedRequest[] = [];
  const server = await startWireServer((request, index) => {
    requests.push(request);
    return options.wire.reply(index === 0 ? { calls: [options.call] } : { text: 'Done.' }, request);
  });
  try {
    const runner = new Runner({ appName: 'wire-test', agent: new LlmAgent({ name: 'agent', model: options.createModel(server.url), tools: options.tools }) });
    let last: Event | undefined;
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Go.' }] } })) last = event;
    if (server.handlerErrors.length > 0) throw server.handlerErrors[0];
    if (last?.text() !== 'Done.' || requests.length !== 2) {
      throw new Error(`requestAfterToolCall: the run ended on ${last?.errorCode ?? JSON.stringify(last?.content)} after ${requests.length} requests`);
    }
    return requests[1];
  } finally {
    await server.close();
  }
}
