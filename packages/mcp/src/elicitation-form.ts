import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { InvalidConfirmationAnswerError, type JsonSchema, type ToolConfirmation, type ToolsmithError } from '@toolsmith/core';
import { schemaProblems } from '@toolsmith/core/adapter-kit';
import { McpFormUnsupportedError } from './mcp-errors';

/** The form of an MCP elicitation (`requestedSchema`): an object of flat, primitive fields. */
export type ElicitationSchema = ElicitRequestFormParams['requestedSchema'];

/** The keywords each kind of field may carry in MCP's restricted elicitation schema (2025-11-25). */
const FIELD_KEYWORDS: Record<string, readonly string[]> = {
  string: ['type', 'title', 'description', 'minLength', 'maxLength', 'format', 'default', 'enum', 'enumNames', 'oneOf'],
  number: ['type', 'title', 'description', 'minimum', 'maximum', 'default'],
  integer: ['type', 'title', 'description', 'minimum', 'maximum', 'default'],
  boolean: ['type', 'title', 'description', 'default'],
  array: ['type', 'title', 'description', 'minItems', 'maxItems', 'items', 'default'],
};
const FORMATS = ['email', 'uri', 'date', 'date-time'];
/** Keywords of the form's root that are not sent: they only constrain the answer, which is checked against the whole schema. */
const ROOT_KEYWORDS = ['type', 'properties', 'required', '$schema', 'title', 'description', 'additionalProperties'];

/**
 * A tool's `payloadSchema` as an MCP elicitation form, or the reason it cannot be one
 * ({@link McpFormUnsupportedError}, `MCP_FORM_UNSUPPORTED`). MCP forms are objects of flat fields:
 * strings (lengths, the formats `email`, `uri`, `date`, `date-time`), numbers and integers (bounds),
 * booleans, single-select enums (`enum`; titled: `oneOf` of `{ const, title }`; legacy `enumNames`) and
 * multi-select enums (an array whose `items` has `enum`, or `anyOf` of `{ const, title }`), each with an
 * optional `title`, `description` and `default` (SEP-1034, SEP-1330). Anything else (a nested object, a
 * `pattern`, a `$ref`) is refused naming the field and keyword, rather than sent as a form that asks less
 * than the schema demands. The fields are sent as written; the root's `additionalProperties`, `title` and
 * `description` are not sent (the answer is still checked against the whole schema).
 */
export function toElicitationSchema(toolName: string, payloadSchema: JsonSchema): ElicitationSchema {
  const refuse = (reason: string) => new McpFormUnsupportedError(toolName, reason);
  const schema = payloadSchema as Record<string, unknown>;
  if (schema.type !== 'object' || !isRecord(schema.properties)) throw refuse('it is not an object schema with "properties"');
  const extra = Object.keys(schema).filter((key) => !ROOT_KEYWORDS.includes(key));
  if (extra.length) throw refuse(`its root has ${list(extra)}, which a form cannot carry`);
  const required = schema.required;
  if (required !== undefined && (!Array.isArray(required) || required.some((name) => typeof name !== 'string'))) throw refuse('"required" is not a list of field names');
  for (const [name, field] of Object.entries(schema.properties)) {
    const problem = fieldProblem(field);
    if (problem) throw refuse(`field "${name}" ${problem}`);
  }
  return {
    type: 'object',
    properties: schema.properties as ElicitationSchema['properties'],
    ...(required !== undefined ? { required: required as string[] } : {}),
  };
}

/** What the client answered a form elicitation: the SDK's `ElicitResult` (2025-11-25) or an `inputResponses` entry (2026-07-28). */
export interface FormAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/**
 * The tool's confirmation from the person's answer to its form, as the runner gives it: accepted, the
 * content is the `payload` (checked against the whole `payloadSchema` first: content that does not fill
 * it in is `INVALID_CONFIRMATION_ANSWER`, naming each problem, and the tool never sees it) and `request`
 * what was asked; declined or cancelled, a rejection.
 */
export function confirmationFromForm(callId: string, requested: ToolConfirmation & { payloadSchema: JsonSchema }, answer: FormAnswer): ToolConfirmation | ToolsmithError {
  const asked: ToolConfirmation = { confirmed: false };
  if (requested.hint !== undefined) asked.hint = requested.hint;
  if (answer.action !== 'accept') return requested.payload === undefined ? asked : { ...asked, payload: requested.payload };
  const content = answer.content ?? {};
  const problems = schemaProblems(requested.payloadSchema, content);
  if (problems.length) {
    return new InvalidConfirmationAnswerError(callId, `the answer does not fill in the form (${problems.map((problem) => problem.message).join('; ')})`);
  }
  const request: NonNullable<ToolConfirmation['request']> = { payloadSchema: requested.payloadSchema };
  if (requested.hint !== undefined) request.hint = requested.hint;
  if (requested.payload !== undefined) request.payload = requested.payload;
  return { ...asked, confirmed: true, payload: content, request };
}

/** The message a form or a confirmation shows: the tool's hint (else a question naming it), then its payload as details. */
export function elicitationMessage(toolName: string, requested: ToolConfirmation): string {
  const details = requested.payload === undefined ? '' : `\n\nDetails: ${JSON.stringify(requested.payload)}`;
  return `${requested.hint ?? `Allow the call to tool "${toolName}"?`}${details}`;
}

function fieldProblem(field: unknown): string | undefined {
  if (!isRecord(field) || typeof field.type !== 'string' || !(field.type in FIELD_KEYWORDS)) {
    return 'is not a string, number, integer, boolean or multi-select (array) field';
  }
  const extra = Object.keys(field).filter((key) => !FIELD_KEYWORDS[field.type as string]!.includes(key));
  if (extra.length) return `has ${list(extra)}, which a form field of type "${field.type}" cannot carry`;
  if (field.format !== undefined && !FORMATS.includes(field.format as string)) return `has format ${JSON.stringify(field.format)} (a form takes ${FORMATS.join(', ')})`;
  if (field.enum !== undefined && !isStrings(field.enum)) return 'has an "enum" that is not a list of strings';
  if (field.enumNames !== undefined && (!isStrings(field.enumNames) || !Array.isArray(field.enum) || field.enumNames.length !== field.enum.length)) {
    return 'has "enumNames" that do not name each "enum" value';
  }
  if (field.oneOf !== undefined && !isTitledOptions(field.oneOf)) return 'has a "oneOf" that is not a list of { const, title } strings';
  if (field.type === 'array') {
    const items = field.items;
    const untitled = isRecord(items) && items.type === 'string' && isStrings(items.enum) && Object.keys(items).every((key) => key === 'type' || key === 'enum');
    const titled = isRecord(items) && isTitledOptions(items.anyOf) && Object.keys(items).every((key) => key === 'anyOf');
    if (!untitled && !titled) return 'is an array whose "items" is neither { type: "string", enum } nor { anyOf: [{ const, title }] }';
  }
  return undefined;
}

function isTitledOptions(value: unknown): boolean {
  return Array.isArray(value) && value.every((option) => isRecord(option) && typeof option.const === 'string' && typeof option.title === 'string' && Object.keys(option).length === 2);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(keys: string[]): string {
  return keys.map((key) => `"${key}"`).join(', ');
}
