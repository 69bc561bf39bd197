import type { ConformanceTurn, RecordedRequest, WireCodec, WireReply, WireToolResult } from '@toolsmith/core/testing';
import { halves } from '@toolsmith/core/testing';
import { geminiHistoryProblems, signThought } from './gemini-history-rules';

/** The `google.rpc` status name for an HTTP status. */
const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/**
 * The Gemini half of the adapter conformance kit: model turns as `GenerateContentResponse`s (one JSON
 * object, or `streamGenerateContent?alt=sse` chunks with the text split over two chunks and the calls
 * in the last), and tool results read from the `functionResponse` parts of the request. Calls carry
 * the scripted ids (as newer Gemini models send them) because the kit checks ids across the
 * confirmation pause; id-less calls are covered by the package's own wire tests. Scripted reasoning
 * becomes a thought signature (on the first call, the text part, or a last empty-text part when
 * streamed), and requests are checked against the API's history rule (gemini-history-rules.ts).
 */
export const geminiWireCodec: WireCodec = {
  reply(turn: ConformanceTurn, request: RecordedRequest): WireReply {
    const signature = turn.reasoning ? { thoughtSignature: signThought(turn.reasoning) } : {};
    // The turn's signature goes on its first call, as Gemini sends it (only the first of parallel calls has one).
    const callParts = (turn.calls ?? []).map((call, index) => ({
      functionCall: { id: call.id, name: call.name, args: typeof call.args === 'string' ? JSON.parse(call.args) : call.args },
      ...(index === 0 ? signature : {}),
    }));
    const usageMetadata = { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70 };
    const chunk = (parts: unknown[], last: boolean) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      ...(last ? { usageMetadata } : {}),
      modelVersion: 'gemini-2.5-flash',
      responseId: 'conformance-response',
    });
    if (!this.isStreaming(request)) {
      // Without calls, the signature is on the text part.
      const textParts = turn.text ? [{ text: turn.text, ...(callParts.length ? {} : signature) }] : [];
      return { json: chunk([...textParts, ...callParts], true) };
    }
    const texts = turn.text ? halves(turn.text).map((text) => ({ text })) : [];
    const chunks = texts.map((part) => chunk([part], false));
    // Streamed without calls, the signature comes last, on a part of its own with empty text.
    const lastParts = callParts.length || !turn.reasoning ? callParts : [{ text: '', ...signature }];
    chunks.push(chunk(lastParts, true));
    return { sse: chunks.map((data) => ({ data })) };
  },

  error(status: number, message: string): WireReply {
    // Gemini states the retry delay in the body (`RetryInfo`), not in a `retry-after` header.
    const details = status === 429 ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }] : [];
    return {
      status,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify({ error: { code: status, message, status: RPC_STATUS[status] ?? 'UNKNOWN', details } }),
    };
  },

  isStreaming: (request) => request.path.includes(':streamGenerateContent'),

  rules: { signedReasoning: true },

  historyProblems: geminiHistoryProblems,

  toolNames: (request) =>
    (request.body.tools ?? []).flatMap((tool: { functionDeclarations?: Array<{ name: string }> }) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name)),

  toolResults(request: RecordedRequest): WireToolResult[] {
    const parts = (request.body.contents as Array<{ parts: Array<Record<string, unknown>> }>).flatMap((content) => content.parts);
    return parts
      .filter((part) => part.functionResponse)
      .map((part) => {
        const { id, name, response } = part.functionResponse as { id?: string; name: string; response: Record<string, unknown> };
        return id === undefined ? { name, response } : { id, name, response };
      });
  },
};
