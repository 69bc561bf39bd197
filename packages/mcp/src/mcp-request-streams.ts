import { type JSONRPCMessage, type RequestId, type Transport, isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/client';

/**
 * Calls `onBroken` when the response stream of a request ends before the request's response came (after
 * the transport's own attempts to resume it): a Streamable HTTP server that died mid-call, its SSE stream
 * cut. The SDK's client hands its requests no `onRequestStreamEnd`, so such a request would otherwise wait
 * for its whole timeout. A stream that ends after its response (the usual end) calls nothing.
 */
export function watchRequestStreams(transport: Transport, onBroken: () => void): void {
  const unanswered = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!isJSONRPCRequest(message)) return send(message, options);
    const id = message.id;
    unanswered.add(id);
    return send(message, {
      ...options,
      onRequestStreamEnd: () => {
        options?.onRequestStreamEnd?.();
        if (unanswered.delete(id)) onBroken();
      },
    });
  };
  // The client sets its message handler when it connects: each response is noted on its way to it.
  let handler = transport.onmessage;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = next && ((message: JSONRPCMessage, extra) => {
        if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) unanswered.delete(message.id as RequestId);
        next(message, extra);
      });
    },
  });
}
