import type { ConformanceTurn, RecordedRequest } from '@toolsmith/core/testing';

// The rules on the history the real Messages API enforces, as the recordings in recorded/ show them
// (a paused turn continued with its content unchanged; thinking sent back with its signature when tools
// are used), checked by the conformance codec so the kit catches an adapter that breaks them.

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };

/** The signature the codec gives a thinking block: the real API checks that the thinking is sent back unchanged. */
export const signThinking = (thinking: string) => Buffer.from(`conformance-signature:${thinking}`).toString('base64');

/** The id of the server tool call a paused turn ends with. */
export const PAUSED_SERVER_TOOL_USE = { type: 'server_tool_use', id: 'srvtoolu_conformance', name: 'web_search', input: { query: 'Paris weather' } };

/** The result of {@link PAUSED_SERVER_TOOL_USE} with which the API starts the continuation of a paused turn. */
export const PAUSED_SERVER_TOOL_RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: PAUSED_SERVER_TOOL_USE.id,
  content: [{ type: 'web_search_result', url: 'https://weather.example/paris', title: 'Paris weather', encrypted_content: 'Eq0LCioIERgC', page_age: null }],
};

/** The content blocks of a turn, as the codec answers them (thinking, text, tool calls, the paused server tool call). */
export function turnBlocks(turn: ConformanceTurn, continuing: boolean): Block[] {
  return [
    ...(continuing ? [PAUSED_SERVER_TOOL_RESULT] : []),
    ...(turn.reasoning ? [{ type: 'thinking', thinking: turn.reasoning, signature: signThinking(turn.reasoning) }] : []),
    ...(turn.text ? [{ type: 'text', text: turn.text }] : []),
    ...(turn.calls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args })),
    ...(turn.paused ? [PAUSED_SERVER_TOOL_USE] : []),
  ];
}

/** True when the request continues a paused turn: its last message is the assistant's, ending with a server tool call. */
export function continuesPausedTurn(messages: Message[]): boolean {
  const last = messages[messages.length - 1];
  return last?.role === 'assistant' && last.content[last.content.length - 1]?.type === 'server_tool_use';
}

/** What the real Messages API would refuse in `request`, given the turns answered before it. */
export function anthropicHistoryProblems(request: RecordedRequest, earlier: readonly ConformanceTurn[]): string[] {
  const messages = request.body.messages as Message[];
  const problems: string[] = [];
  const assistant = messages.filter((message) => message.role === 'assistant');
  for (const block of assistant.flatMap((message) => message.content)) {
    if (block.type === 'thinking' && block.signature !== signThinking(block.thinking as string)) problems.push('Invalid `signature` in `thinking` block');
  }
  for (const turn of earlier) {
    const firstCall = turn.calls?.[0];
    if (!turn.reasoning || !firstCall) continue;
    const holder = assistant.find((message) => message.content.some((block) => block.type === 'tool_use' && block.id === firstCall.id));
    if (!holder) continue;
    const at = holder.content.findIndex((block) => block.type === 'tool_use' && block.id === firstCall.id);
    if (!holder.content.slice(0, at).some((block) => block.type === 'thinking' && block.thinking === turn.reasoning)) {
      problems.push(`the thinking block of the turn that called ${firstCall.id} was not sent back before its tool_use (required with tools and thinking)`);
    }
  }
  const last = earlier[earlier.length - 1];
  if (last?.paused) {
    const sent = turnBlocks(last, false).map(comparable);
    const tail = messages[messages.length - 1];
    const got = tail?.role === 'assistant' ? tail.content.slice(-sent.length).map(comparable) : [];
    if (JSON.stringify(got) !== JSON.stringify(sent)) problems.push('a paused turn must be continued with its content sent back unchanged as the last (assistant) message');
  }
  assistant.forEach((message, index) => {
    const answered = new Set(message.content.map((block) => block.tool_use_id));
    message.content.forEach((block, at) => {
      const continuation = index === assistant.length - 1 && message === messages[messages.length - 1] && at === message.content.length - 1;
      if (block.type === 'server_tool_use' && !answered.has(block.id) && !continuation) problems.push(`server_tool_use ${String(block.id)} has no result block`);
    });
  });
  problems.push(...toolPairingProblems(messages));
  // Call ids: "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'" (the API's 400, as
  // users replaying other providers' ids report it).
  messages.forEach((message, index) =>
    message.content.forEach((block, at) => {
      const [field, id] = block.type === 'tool_use' ? ['tool_use.id', block.id] : block.type === 'tool_result' ? ['tool_result.tool_use_id', block.tool_use_id] : [];
      if (field && !/^[a-zA-Z0-9_-]+$/.test(String(id))) problems.push(`messages.${index}.content.${at}.${field}: String should match pattern '^[a-zA-Z0-9_-]+$'`);
    }),
  );
  return problems;
}

/**
 * The Messages API's pairing rule: the first message is the user's; each `tool_use` block is answered by
 * a `tool_result` block in the user message right after it, and every `tool_result` answers a `tool_use`
 * of the assistant message right before it (tool results first in their message).
 */
function toolPairingProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  if (messages[0] && messages[0].role !== 'user') problems.push('messages: the first message must use the "user" role');
  messages.forEach((message, index) => {
    const uses = message.role === 'assistant' ? message.content.filter((block) => block.type === 'tool_use').map((block) => block.id) : [];
    const next = messages[index + 1];
    const answered = new Set(next?.role === 'user' ? next.content.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id) : []);
    for (const id of uses) if (!answered.has(id)) problems.push(`messages.${index}: tool_use ids were found without tool_result blocks immediately after: ${String(id)}`);
    if (message.role !== 'user') return;
    const previous = messages[index - 1];
    const called = new Set(previous?.role === 'assistant' ? previous.content.filter((block) => block.type === 'tool_use').map((block) => block.id) : []);
    const results = message.content.filter((block) => block.type === 'tool_result');
    for (const block of results) if (!called.has(block.tool_use_id)) problems.push(`messages.${index}: unexpected tool_use_id found in tool_result blocks: ${String(block.tool_use_id)}`);
    if (results.length > 0 && message.content.slice(0, results.length).some((block) => block.type !== 'tool_result')) problems.push(`messages.${index}: tool_result blocks must come first in the user message`);
  });
  return problems;
}

/** A block as the API compares it on the way back (a text block's `citations: null` is the same as none). */
function comparable(block: Block): Block {
  const { citations, ...rest } = block;
  return citations === null || citations === undefined ? rest : block;
}
