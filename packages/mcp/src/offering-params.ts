/**
 * What is wrong with the params of a `resources/read`, `resources/subscribe`, `resources/unsubscribe`,
 * `prompts/get` or `completion/complete` request, in
 * one sentence for a `-32602` (invalid params) error; `undefined` when their types are right (or the
 * method is another). The SDK checks these too, but answers a wrong type with `-32603` and a raw schema
 * dump, so the server checks first (see `createMcpToolServer`).
 */
export function offeringParamsProblem(method: string, params: unknown): string | undefined {
  const given = isRecord(params) ? params : {};
  if (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') return typeof given.uri === 'string' ? undefined : `"uri" must be a string, got ${describe(given.uri)}.`;
  if (method === 'prompts/get') {
    if (typeof given.name !== 'string') return `"name" must be a string, got ${describe(given.name)}.`;
    return stringMapProblem('arguments', given.arguments);
  }
  if (method === 'completion/complete') {
    const { ref, argument, context } = given;
    if (!isRecord(ref) || (ref.type === 'ref/prompt' ? typeof ref.name !== 'string' : ref.type !== 'ref/resource' || typeof ref.uri !== 'string')) {
      return '"ref" must be { "type": "ref/prompt", "name": <string> } or { "type": "ref/resource", "uri": <string> }.';
    }
    if (!isRecord(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') return '"argument" must be { "name": <string>, "value": <string> }.';
    if (context === undefined) return undefined;
    if (!isRecord(context)) return `"context" must be an object, got ${describe(context)}.`;
    return stringMapProblem('context.arguments', context.arguments);
  }
  return undefined;
}

/** A map of argument names to string values (absent is fine). */
function stringMapProblem(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return `"${field}" must be an object of strings, got ${describe(value)}.`;
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string') return `"${field}.${name}" must be a string, got ${describe(item)}.`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null || Array.isArray(value)) return value === null ? 'null' : 'an array';
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`;
}
