import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import type { Content, Part } from '../model/content';
import { REDACTED } from '../redaction/secret-redaction';
import { isRecord } from './request-confirmation';

/** A user message split into what may be kept (stored, traced, shown) and the credentials typed into it. */
export interface WithheldCredentials {
  /** The message with every `credential` value of a credential answer replaced by {@link REDACTED}. */
  stored: Content;
  /** Request id → the answer's original `response` (with the secret), kept in memory for this invocation only. */
  answers: ReadonlyMap<string, unknown>;
}

/**
 * Takes the secrets out of the credential answers of a user's message (`{ credential: { apiKey } }`,
 * `{ token }`, `{ username, password }`): the stored event keeps the field names with {@link REDACTED}
 * values, and the answers themselves stay in memory until the runner hands them to the credential service.
 * `undefined` when the message answers no credential request with a credential (the usual message),
 * so it is stored as it is.
 */
export function withholdCredentials(message: Content): WithheldCredentials | undefined {
  // Runs on the new message's checked copy (copyNewMessage): its parts are plain data.
  const parts: unknown = isRecord(message) ? message.parts : undefined;
  if (!Array.isArray(parts) || !parts.some(typedCredential)) return undefined;
  const answers = new Map<string, unknown>();
  const stored: Part[] = (parts as Part[]).map((part) => {
    if (!typedCredential(part)) return part;
    const { functionResponse } = part;
    const response = functionResponse!.response as Record<string, unknown>;
    answers.set(functionResponse!.id, response);
    let redacted: unknown = REDACTED;
    if (isRecord(response.credential)) {
      const fields: Record<string, string> = {};
      for (const field of Object.keys(response.credential)) fields[field] = REDACTED;
      redacted = fields;
    }
    return { ...part, functionResponse: { ...functionResponse!, response: { ...response, credential: redacted } } };
  });
  return { stored: { ...message, parts: stored }, answers };
}

function typedCredential(part: unknown): part is Part {
  if (!isRecord(part) || !isRecord(part.functionResponse)) return false;
  const response = part.functionResponse;
  return response.name === REQUEST_CREDENTIAL && typeof response.id === 'string' && isRecord(response.response) && response.response.credential !== undefined;
}
