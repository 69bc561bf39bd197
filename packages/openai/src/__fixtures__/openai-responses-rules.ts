// The rule of the real Responses API on reasoning items sent back, for the wire fakes: learned from the
// recorded 400 (recorded/responses-reasoning-without-following-item-400.json).

type Item = Record<string, unknown>;

/**
 * What the real Responses API would refuse in `input`, given the output items it returned before (in
 * order): a reasoning item it issued must come back unchanged and be immediately followed by the item
 * that followed it in its response, by id; one it never issued cannot be resolved. Each problem is the
 * API's own error message.
 */
export function responsesReasoningProblems(input: readonly Item[], issued: readonly Item[]): string[] {
  const following = new Map<string, { item: Item; next: unknown }>();
  issued.forEach((item, index) => {
    if (item.type === 'reasoning' && typeof item.id === 'string') following.set(item.id, { item, next: issued[index + 1]?.id });
  });
  const problems: string[] = [];
  input.forEach((item, index) => {
    if (item.type !== 'reasoning' || typeof item.id !== 'string') return;
    const known = following.get(item.id);
    if (!known) problems.push(`Item with id '${item.id}' not found.`);
    else if (JSON.stringify(item) !== JSON.stringify(known.item)) problems.push(`Item '${item.id}' of type 'reasoning' was not sent back as it was returned.`);
    else if (input[index + 1]?.id !== known.next) problems.push(`Item '${item.id}' of type 'reasoning' was provided without its required following item.`);
  });
  return problems;
}

/**
 * The Responses API's rules on call ids in `input`: a `call_id` holds at most 64 characters ("Invalid
 * 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a string with length
 * 116 instead.", as users report it: AnswerDotAI/fastllm#45, decolua/9router#393), and every
 * `function_call_output` answers a `function_call` of the input ("No tool call found for function call output
 * with call_id …").
 */
export function responsesCallIdProblems(input: readonly Item[]): string[] {
  const problems: string[] = [];
  const calls = new Set(input.filter((item) => item.type === 'function_call').map((item) => item.call_id));
  input.forEach((item, index) => {
    const id = item.call_id;
    if (typeof id !== 'string') return;
    if (id.length > 64) problems.push(`Invalid 'input[${index}].call_id': string too long. Expected a string with maximum length 64, but got a string with length ${id.length} instead.`);
    if (item.type === 'function_call_output' && !calls.has(id)) problems.push(`No tool call found for function call output with call_id ${id}.`);
  });
  return problems;
}

/**
 * The real Responses API's answer to `include: ["reasoning.encrypted_content"]` for a model without
 * reasoning (gpt-4o, gpt-4o-mini, gpt-4.1-mini, gpt-5-chat-latest), as users pasted it (pydantic/pydantic-ai#2865,
 * pydantic/pydantic-ai#3326, miquido/draive#399, NousResearch/hermes-agent#23450): a 400 with param `include`.
 * Models with reasoning: the `o` series and `gpt-5` except `gpt-5-chat`.
 */
export function responsesIncludeRefusal(body: { model: string; include?: string[] }): { status: 400; json: unknown } | undefined {
  if (/^(o\d|gpt-5(?!(\.\d+)?-chat))/.test(body.model) || !body.include?.includes('reasoning.encrypted_content')) return undefined;
  return { status: 400, json: { error: { message: 'Encrypted content is not supported with this model.', type: 'invalid_request_error', param: 'include', code: null } } };
}
