import { type RecordedRequest, startWireServer } from '@toolsmith/core/testing';
import { MODEL_NAMES, MODEL_TURNS } from './travel-app';
import { type WireApi, apiOfPath, wireReply } from './wire-replies';

/** What one framework sent over one conversation. */
export interface CapturedConversation {
  /** Every request body, as sent, in order. */
  requests: RecordedRequest[];
  /** The final answer the app returned (the scripted last turn's text when the run went through). */
  answer: string;
}

/**
 * Runs `app` against a local server that answers each request with the next scripted model turn in
 * `api`'s wire format, and returns every request the app's SDK sent. Fails when the app sent a request
 * to another API, made more model calls than the script has turns, or stopped before the last turn.
 */
export async function captureRequests(api: WireApi, app: (baseURL: string) => Promise<string>): Promise<CapturedConversation> {
  const model = api === 'anthropic' ? MODEL_NAMES.anthropic : api === 'gemini' ? MODEL_NAMES.gemini : MODEL_NAMES.openai;
  const server = await startWireServer((request, index) => {
    const sentTo = apiOfPath(request.path);
    if (sentTo !== api) throw new Error(`expected a ${api} request, got ${request.method} ${request.path}`);
    const turn = MODEL_TURNS[index];
    if (!turn) throw new Error(`request ${index + 1} is past the script's ${MODEL_TURNS.length} turns`);
    return wireReply(api, turn, model);
  });
  try {
    const answer = await app(server.url);
    if (server.handlerErrors.length) throw server.handlerErrors[0];
    if (server.requests.length !== MODEL_TURNS.length) {
      throw new Error(`${api}: ${server.requests.length} requests for a script of ${MODEL_TURNS.length} turns`);
    }
    return { requests: [...server.requests], answer };
  } finally {
    await server.close();
  }
}
