// Anthropic's documented rules for custom tools, written independently of the adapter so the dialect
// grid can check what it sends. Sources: Messages API tool use ("name … must match the regex
// `^[a-zA-Z0-9_-]{1,64}$`"; `input_schema` is a JSON Schema (draft 2020-12) object whose `type` is
// "object") and the API's refusal of `anyOf`/`oneOf`/`allOf` at the top level of `input_schema`.

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Problems Anthropic would report for one custom tool as sent. */
export function anthropicToolProblems(tool: { name: string; input_schema: Record<string, unknown> }): string[] {
  const problems: string[] = [];
  if (!NAME.test(tool.name)) problems.push(`name "${tool.name}" does not match ${NAME}`);
  if (tool.input_schema?.type !== 'object') problems.push('input_schema.type must be "object"');
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) if (tool.input_schema?.[keyword] !== undefined) problems.push(`input_schema has "${keyword}" at the top level`);
  return problems;
}
