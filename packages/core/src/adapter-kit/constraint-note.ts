import type { JsonSchema } from '../model/json-schema';

/** How every note about constraints moved out of a provider's schema begins, so tests and tools can find them. */
export const CONSTRAINT_NOTE_PREFIX = 'Must also satisfy (JSON Schema):';

/**
 * The sentence that tells the model about constraints a provider's schema dialect cannot carry, e.g.
 * `Must also satisfy (JSON Schema): {"minLength":3}.` Toolsmith still enforces them: every call is
 * validated against the canonical schema, and a violation goes back to the model as an error.
 */
export function constraintNote(constraints: JsonSchema): string {
  return `${CONSTRAINT_NOTE_PREFIX} ${JSON.stringify(constraints)}.`;
}

/**
 * `description` with `note` after it, as a sentence of its own: a description that does not end a
 * sentence (`.`, `!`, `?`, `:` or `;`) gets a period first, so the model reads `City name. Must also
 * satisfy…`, not `City name Must also satisfy…`. Just `note` when there is no description (not a
 * string, or empty).
 */
export function withNote(description: unknown, note: string): string {
  if (typeof description !== 'string' || description.trim() === '') return note;
  const text = description.trimEnd();
  return /[.!?:;]$/.test(text) ? `${text} ${note}` : `${text}. ${note}`;
}

/**
 * Returns a copy of `schema` without `keywords`, with a {@link constraintNote} about them appended to
 * its `description`; `schema` itself when it has none of them. For adapters whose provider refuses a
 * keyword that only narrows what is valid (`minLength`, `uniqueItems`, a `format` it does not know, …):
 * the provider gets a schema it takes, the model still reads the rule, and Toolsmith's own validation
 * of every call still enforces it.
 *
 * @example
 * ```ts
 * moveToDescription({ type: 'string', description: 'Code', minLength: 3 }, ['minLength']);
 * // → { type: 'string', description: 'Code. Must also satisfy (JSON Schema): {"minLength":3}.' }
 * ```
 */
export function moveToDescription(schema: JsonSchema, keywords: readonly string[]): JsonSchema {
  const moved: JsonSchema = {};
  const kept: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keywords.includes(keyword)) moved[keyword] = value;
    else kept[keyword] = value;
  }
  if (Object.keys(moved).length === 0) return schema;
  const note = constraintNote(moved);
  kept.description = withNote(schema.description, note);
  return kept;
}
