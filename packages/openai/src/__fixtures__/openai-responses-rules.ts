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
