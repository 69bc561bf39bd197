import type { ConformanceTurn, RecordedRequest, SseEvent, WireCodec, WireReply, WireToolResult } from '@toolsmith/core/testing';
import { halves } from '@toolsmith/core/testing';
import { anthropicHistoryProblems, continuesPausedTurn, turnBlocks } from './anthropic-history-rules';

/** The Messages API `error.type` for an HTTP status, as Anthropic documents it. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * The Anthropic half of the adapter conformance kit: model turns as Messages API responses (a
 * `message` object, or the SSE event sequence with text split into deltas and tool inputs into
 * `input_json_delta` fragments; signed thinking and paused turns when scripted), tool results read from the
 * `tool_result` blocks of the request, and the history rules of the real API (anthropic-history-rules.ts).
 */
export const anthropicWireCodec: WireCodec = {
  reply(turn: ConformanceTurn, request: RecordedRequest): WireReply {
    const blocks = turnBlocks(turn, continuesPausedTurn(request.body.messages));
    const stopReason = turn.paused ? 'pause_turn' : turn.calls?.length ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: 50, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    if (!request.body.stream) {
      const content = blocks.map((block) =>
        block.type === 'text' ? { ...block, citations: null } : block.type === 'tool_use' ? { ...block, caller: { type: 'direct' } } : block,
      );
      return { json: { id: 'msg_conformance', type: 'message', role: 'assistant', model: request.body.model, content, stop_reason: stopReason, stop_sequence: null, usage } };
    }
    const events: SseEvent[] = [
      { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_conformance', type: 'message', role: 'assistant', model: request.body.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } } },
    ];
    blocks.forEach((block, index) => {
      const delta = (payload: Record<string, unknown>) => events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: payload } });
      if (block.type === 'text') {
        events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
        for (const piece of halves(block.text as string)) delta({ type: 'text_delta', text: piece });
      } else if (block.type === 'thinking') {
        events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } } });
        for (const piece of halves(block.thinking as string)) delta({ type: 'thinking_delta', thinking: piece });
        delta({ type: 'signature_delta', signature: block.signature });
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...block, input: {} } } });
        const json = typeof block.input === 'string' ? block.input : JSON.stringify(block.input);
        for (const piece of halves(json)) delta({ type: 'input_json_delta', partial_json: piece });
      } else {
        events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
      }
      events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    });
    events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } } });
    events.push({ event: 'message_stop', data: { type: 'message_stop' } });
    return { sse: events };
  },

  error(status: number, message: string): WireReply {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 429) headers['retry-after'] = '2';
    return { status, headers, text: JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }) };
  },

  isStreaming: (request) => request.body?.stream === true,

  rules: { signedReasoning: true, pausedTurns: true },

  historyProblems: anthropicHistoryProblems,

  toolNames: (request) => (request.body.tools ?? []).filter((tool: { input_schema?: unknown }) => tool.input_schema).map((tool: { name: string }) => tool.name),

  toolResults(request: RecordedRequest): WireToolResult[] {
    const blocks = (request.body.messages as Array<{ content: Array<Record<string, unknown>> }>).flatMap((message) => message.content);
    return blocks
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({ id: block.tool_use_id as string, response: JSON.parse(block.content as string), isError: block.is_error === true }));
  },
};
