/**
 * A JSON Schema (draft 2020-12) as a plain JSON object. Toolsmith produces one canonical schema per tool;
 * adapters derive their provider's dialect from it.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** A JSON value, as stored in sessions and sent to models. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
