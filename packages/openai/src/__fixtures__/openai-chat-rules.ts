// The rule of Google's OpenAI-compatible Chat Completions endpoint on the history, for the wire fakes:
// a tool call it returned with `extra_content.google.thought_signature` (Gemini 3 models sign the first
// call of each step) must come back in the assistant message's `tool_calls[i].extra_content` unchanged,
// or it answers 400 with the error recorded in recorded/errors.json (`gemini_missing_thought_signature`).

type ChatMessage = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire messages of every shape

/** The thought signature the fake gives a turn's reasoning (base64, as Google sends them). */
export const chatThoughtSignature = (reasoning: string) => Buffer.from(`chat-thought:${reasoning}`).toString('base64');

/**
 * What Google's endpoint would refuse in `messages`, given the signatures it issued before (call id →
 * signature): a signed call sent back without its signature (the API's own message, with the call's
 * name and the 1-based position of its message among the non-system messages), or a signature it never
 * issued for that call.
 */
export function chatThoughtSignatureProblems(messages: readonly ChatMessage[], issued: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  messages
    .filter((message) => message.role !== 'system')
    .forEach((message, index) => {
      for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
        const sent: unknown = call.extra_content?.google?.thought_signature;
        const expected = issued.get(call.id);
        if (expected !== undefined && sent === undefined) {
          problems.push(
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${call.function.name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          );
        } else if (sent !== undefined && sent !== expected) {
          problems.push('Corrupted thought signature.');
        }
      }
    });
  return problems;
}

/**
 * Chat Completions' rules on call ids in `messages`: a `tool_calls[].id` holds at most 40 characters (the API's
 * 400, "string too long. Expected a string with maximum length 40", as users report it: vercel/ai#8132,
 * microsoft/autogen#6377), and an assistant message with `tool_calls` is followed by one `tool` message per call id.
 */
export function chatCallIdProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const calls: Array<{ id: string }> = message.tool_calls ?? [];
    calls.forEach((call, at) => {
      if (call.id.length > 40) {
        problems.push(`Invalid 'messages[${index}].tool_calls[${at}].id': string too long. Expected a string with maximum length 40, but got a string with length ${call.id.length} instead.`);
      }
    });
    const answered = new Set<string>();
    for (let next = index + 1; messages[next]?.role === 'tool'; next++) answered.add(messages[next].tool_call_id);
    if (calls.some((call) => !answered.has(call.id))) {
      problems.push("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.");
    }
  });
  return problems;
}

/**
 * DeepSeek's thinking mode (https://api-docs.deepseek.com/guides/thinking_mode#tool-calls): an assistant
 * message that made tool calls must carry its `reasoning_content` back, or the API answers 400 with the
 * message users pasted (continuedev/continue#10193, hotovo/aider-desk#529, openai/openai-agents-js#791),
 * naming the message's index in `messages`.
 */
export function deepseekReasoningProblems(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((message, index) =>
    message.role === 'assistant' && message.tool_calls?.length && typeof message.reasoning_content !== 'string'
      ? [`Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`]
      : [],
  );
}
