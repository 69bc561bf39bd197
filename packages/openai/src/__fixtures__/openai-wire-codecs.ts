// Wire codecs of the adapter conformance kit for OpenAI's two APIs: how a scripted model turn looks
// on each wire (JSON or SSE, as OpenAI sends it) and how tool results are read back from requests.
import type { ConformanceTurn, RecordedRequest, SseEvent, WireCodec, WireReply, WireToolResult } from '@toolsmith/core/testing';
import { chatCallIdProblems, chatThoughtSignature, chatThoughtSignatureProblems } from './openai-chat-rules';
import { responsesCallIdProblems, responsesReasoningProblems } from './openai-responses-rules';

const usage = { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52, prompt_tokens_details: { cached_tokens: 0 } };

/** Splits text into three deltas (at least two when it has two characters), as a model streams it. */
function deltas(text: string): string[] {
  const third = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += third) out.push(text.slice(i, i + third));
  return out;
}

const argumentsText = (args: Record<string, unknown> | string) => (typeof args === 'string' ? args : JSON.stringify(args));

function errorReply(status: number, message: string): WireReply {
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return {
    status,
    headers: status === 429 ? { 'retry-after': '2' } : {},
    json: { error: { message, type, param: status === 400 ? 'input' : null, code: status === 429 ? 'rate_limit_exceeded' : null } },
  };
}

/** The `extra_content` Google's endpoint puts on the first call of a turn with (scripted) reasoning. */
const signedCall = (turn: ConformanceTurn, index: number) =>
  turn.reasoning && index === 0 ? { extra_content: { google: { thought_signature: chatThoughtSignature(turn.reasoning) } } } : {};

/**
 * Chat Completions: `tool_calls` on the assistant message, results as `tool` messages. A turn with
 * reasoning is answered as Google's OpenAI-compatible endpoint answers for Gemini 3 models: its first call
 * carries `extra_content.google.thought_signature`, and, like that endpoint, the fake refuses a later
 * request that does not send the signature back on the call (`chatThoughtSignatureProblems`).
 */
export const openAIChatCodec: WireCodec = {
  reply(turn: ConformanceTurn, request: RecordedRequest): WireReply {
    const calls = turn.calls ?? [];
    const finishReason = calls.length ? 'tool_calls' : 'stop';
    const base = { id: 'chatcmpl-conformance', created: 1763800000, model: 'gpt-4.1-mini-2025-04-14', system_fingerprint: 'fp_conf' };
    if (request.body.stream !== true) {
      const toolCalls = calls.map((call, index) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: argumentsText(call.args) },
        ...signedCall(turn, index),
      }));
      const message = { role: 'assistant', content: turn.text ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
      return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage } };
    }
    const chunk = (delta: unknown, finish: string | null = null) => ({
      data: { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null },
    });
    const events: SseEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const text of deltas(turn.text ?? '')) events.push(chunk({ content: text }));
    calls.forEach((call, index) => {
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' }, ...signedCall(turn, index) }] }));
      const text = argumentsText(call.args);
      const half = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, half), text.slice(half)]) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    events.push(chunk({}, finishReason));
    events.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } });
    events.push({ data: '[DONE]' });
    return { sse: events };
  },
  error: errorReply,
  isStreaming: (request) => request.body.stream === true,
  toolNames: (request) => (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name),
  rules: { signedReasoning: true },
  historyProblems: (request, earlier) => [
    ...chatThoughtSignatureProblems(
      request.body.messages,
      new Map(earlier.flatMap((turn) => (turn.reasoning && turn.calls?.length ? [[turn.calls[0].id, chatThoughtSignature(turn.reasoning)] as const] : []))),
    ),
    ...chatCallIdProblems(request.body.messages),
  ],
  toolResults: (request): WireToolResult[] =>
    request.body.messages
      .filter((message: { role: string }) => message.role === 'tool')
      .map((message: { tool_call_id: string; content: string }) => ({ id: message.tool_call_id, response: JSON.parse(message.content) })),
};

/** A short stable hash of a scripted turn: its output items get ids of their own, the same each time it is answered. */
function turnKey(turn: ConformanceTurn): string {
  let hash = 2166136261;
  for (const char of JSON.stringify(turn)) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(16);
}

/** The output items the fake Responses API returns for `turn`: reasoning (when scripted) first, then the message, then the calls. */
function responsesOutput(turn: ConformanceTurn) {
  const key = turnKey(turn);
  const reasoning = turn.reasoning
    ? [{ id: `rs_conf_${key}`, type: 'reasoning', summary: [{ type: 'summary_text', text: turn.reasoning }], encrypted_content: `gAAAAconf${key}` }]
    : [];
  const message = turn.text
    ? [{ id: `msg_conf_${key}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }] }]
    : [];
  const calls = (turn.calls ?? []).map((call, i) => ({
    id: `fc_conf_${key}_${i}`,
    type: 'function_call',
    status: 'completed',
    call_id: call.id,
    name: call.name,
    arguments: argumentsText(call.args),
  }));
  return { reasoning, message, calls };
}

/**
 * Responses API: reasoning items (scripted reasoning), `function_call` output items, results as
 * `function_call_output` input items. Like the real API, it refuses a request whose reasoning items do not
 * come back unchanged, each immediately followed by the item that followed it (`responsesReasoningProblems`).
 */
export const openAIResponsesCodec: WireCodec = {
  reply(turn: ConformanceTurn, request: RecordedRequest): WireReply {
    const { reasoning, message, calls } = responsesOutput(turn);
    const output = [...reasoning, ...message, ...calls];
    const response = (status: string, items: unknown[]) => ({
      id: 'resp_conf',
      object: 'response',
      created_at: 1763800000,
      status,
      error: null,
      incomplete_details: null,
      model: 'gpt-4.1-mini-2025-04-14',
      output: items,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage: status === 'completed' ? { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 52 } : null,
    });
    if (request.body.stream !== true) return { json: response('completed', output) };

    let sequence = 0;
    const events: SseEvent[] = [];
    const emit = (type: string, fields: Record<string, unknown>) => events.push({ event: type, data: { type, ...fields, sequence_number: sequence++ } });
    emit('response.created', { response: response('in_progress', []) });
    output.forEach((item, outputIndex) => {
      if (item.type === 'reasoning') {
        emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
        emit('response.reasoning_summary_text.delta', { item_id: item.id, output_index: outputIndex, summary_index: 0, delta: turn.reasoning });
      } else if (item.type === 'message') {
        const text = turn.text!;
        emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
        emit('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of deltas(text)) {
          emit('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
        }
        emit('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      } else {
        const call = item as (typeof calls)[number];
        emit('response.output_item.added', { output_index: outputIndex, item: { ...call, status: 'in_progress', arguments: '' } });
        const half = Math.ceil(call.arguments.length / 2);
        for (const delta of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
          emit('response.function_call_arguments.delta', { item_id: call.id, output_index: outputIndex, delta });
        }
        emit('response.function_call_arguments.done', { item_id: call.id, output_index: outputIndex, arguments: call.arguments });
      }
      emit('response.output_item.done', { output_index: outputIndex, item });
    });
    emit('response.completed', { response: response('completed', output) });
    return { sse: events };
  },
  error: errorReply,
  isStreaming: (request) => request.body.stream === true,
  toolNames: (request) =>
    (request.body.tools ?? []).filter((tool: { type: string }) => tool.type === 'function').map((tool: { name: string }) => tool.name),
  rules: { signedReasoning: true },
  historyProblems: (request, earlier) => [
    ...responsesReasoningProblems(
      request.body.input,
      earlier.flatMap((turn) => {
        const { reasoning, message, calls } = responsesOutput(turn);
        return [...reasoning, ...message, ...calls];
      }),
    ),
    ...responsesCallIdProblems(request.body.input),
  ],
  toolResults: (request): WireToolResult[] =>
    request.body.input
      .filter((item: { type?: string }) => item.type === 'function_call_output')
      .map((item: { call_id: string; output: string }) => ({ id: item.call_id, response: JSON.parse(item.output) })),
};
