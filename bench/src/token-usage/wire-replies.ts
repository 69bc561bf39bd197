import type { WireReply } from '@toolsmith/core/testing';

/** One scripted model turn: function calls, or the final text. */
export interface ModelTurn {
  calls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  text?: string;
}

/** The provider APIs the token benchmark speaks, each as its official SDK calls it (non-streaming). */
export type WireApi = 'chat' | 'responses' | 'anthropic' | 'gemini';

/** Which API a request to the local server is for, from its path. */
export function apiOfPath(path: string): WireApi | undefined {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages')) return 'anthropic';
  if (path.includes(':generateContent')) return 'gemini';
  return undefined;
}

/** The provider's JSON answer carrying `turn`, as the real API shapes a non-streamed response. */
export function wireReply(api: WireApi, turn: ModelTurn, model: string): WireReply {
  const calls = turn.calls ?? [];
  switch (api) {
    case 'chat': {
      const toolCalls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }));
      const message = { role: 'assistant', content: turn.text ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
      return {
        json: {
          id: 'chatcmpl-bench',
          object: 'chat.completion',
          created: 1763800000,
          model,
          choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
      };
    }
    case 'responses': {
      const output: unknown[] = calls.map((call, i) => ({
        id: `fc_bench_${call.id}_${i}`,
        type: 'function_call',
        status: 'completed',
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.args),
      }));
      if (turn.text) {
        output.push({ id: 'msg_bench', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }] });
      }
      return {
        json: {
          id: 'resp_bench',
          object: 'response',
          created_at: 1763800000,
          status: 'completed',
          error: null,
          incomplete_details: null,
          model,
          output,
          parallel_tool_calls: true,
          tool_choice: 'auto',
          tools: [],
          usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 },
        },
      };
    }
    case 'anthropic': {
      const content: unknown[] = turn.text ? [{ type: 'text', text: turn.text }] : [];
      for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      return {
        json: {
          id: 'msg_bench',
          type: 'message',
          role: 'assistant',
          model,
          content,
          stop_reason: calls.length ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      };
    }
    case 'gemini': {
      const parts: unknown[] = turn.text ? [{ text: turn.text }] : [];
      for (const call of calls) parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
      return {
        json: {
          candidates: [{ content: { role: 'model', parts }, index: 0, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
          modelVersion: model,
          responseId: 'bench-response',
        },
      };
    }
  }
}
