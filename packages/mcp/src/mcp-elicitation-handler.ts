/** A form a server asks the user to fill in (an elicitation, or a form of a 2026-07-28 `input_required`). */
export interface McpElicitationForm {
  /** The server's message to the person. */
  message: string;
  /** The form: a flat JSON Schema object of strings, numbers, booleans and enums, with optional defaults. */
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

/** Where a form comes from. */
export interface McpElicitationOrigin {
  /** The server, e.g. `http://127.0.0.1:3000/mcp`. */
  server: string;
  /** The server's name of the tool whose call asks, when it is known (a 2025-era elicitation during several calls is not). */
  tool?: string;
}

/** An answer to a form: accepted with its content, declined, or cancelled. */
export type McpElicitationAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' | 'cancel' };

/**
 * Answers a server's form without asking the person (`McpToolset`'s `onElicitation`), or returns
 * `undefined` to ask them: the run pauses with the form as a confirmation request, as without a handler.
 */
export type McpElicitationHandler = (form: McpElicitationForm, origin: McpElicitationOrigin) => McpElicitationAnswer | undefined | Promise<McpElicitationAnswer | undefined>;

/**
 * An {@link McpElicitationHandler} that accepts a form whose every field has a default, with those
 * defaults, without asking the person (SEP-1034); any other form is asked of the person.
 *
 * @example
 * ```ts
 * new McpToolset({ transport: { url }, onElicitation: acceptFormDefaults });
 * ```
 */
export function acceptFormDefaults(form: McpElicitationForm): McpElicitationAnswer | undefined {
  const fields = Object.entries(form.requestedSchema.properties ?? {});
  if (!fields.every(([, field]) => field.default !== undefined)) return undefined;
  return { action: 'accept', content: Object.fromEntries(fields.map(([name, field]) => [name, field.default as string | number | boolean | string[]])) };
}
