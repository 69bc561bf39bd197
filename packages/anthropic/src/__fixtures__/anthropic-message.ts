/** What the Messages API answers to a non-streaming `messages.create`, for the tests' wire servers. */
export interface AnthropicMessageOptions {
  id?: string;
  stopReason?: string;
  usage?: Record<string, number>;
}

/** A complete `message` response holding `content` (`end_turn`, one input and one output token unless told). */
export function anthropicMessage(content: unknown[], options: AnthropicMessageOptions = {}) {
  return {
    id: options.id ?? 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content,
    stop_reason: options.stopReason ?? 'end_turn',
    stop_sequence: null,
    usage: options.usage ?? { input_tokens: 1, output_tokens: 1 },
  };
}
