import { BadRequestException } from '@nestjs/common';
import type { AuthCredential, CredentialAnswerInput } from '@toolsmith/core';

/** Body of `POST /chat`. */
export interface ChatRequest {
  /** Who is chatting. A real app takes this from its authentication, not from the body. */
  userId: string;
  /** The conversation to continue; created on first use. */
  sessionId: string;
  message: string;
  /** The client's id of this message: sent again (a retry after a lost connection), it is not stored or run again. */
  messageId?: string;
}

/**
 * Body of `POST /chat/confirm`: the user's answer to a `confirmation` event, one of the four decisions
 * (`decision: 'approve' | 'edit' | 'reject' | 'respond'` with `args`, `message`, `result` or `remember`), or
 * `confirmed: true | false`; both with an optional `payload`.
 */
export interface ConfirmRequest {
  userId: string;
  sessionId: string;
  /** Id of the `toolsmith_request_confirmation` function call being answered. */
  confirmationId: string;
  /**
   * The answer's fields exactly as sent (everything but the ids): core's own check reads them as the
   * runner will, so the controller refuses what the runner would refuse (see `ChatController.answerFor`).
   */
  answer: Record<string, unknown>;
  /** The client's id of this answer: sent again, it is not stored or run again (see {@link ChatRequest.messageId}). */
  messageId?: string;
}

/** Body of `POST /chat/credential`: the user's answer to a `credential` event. */
export interface CredentialRequestAnswer {
  userId: string;
  sessionId: string;
  /** Id of the `toolsmith_request_credential` function call being answered. */
  credentialId: string;
  /** The URL the authorization server redirected the user to (OAuth2), or the typed-in credential, or a refusal. */
  answer: CredentialAnswerInput;
  /** The client's id of this answer: sent again, it is not stored or run again (see {@link ChatRequest.messageId}). */
  messageId?: string;
}

/** Checks the body of `POST /chat`; a bad body is a 400 before any streaming starts. */
export function parseChatRequest(body: unknown): ChatRequest {
  const record = asRecord(body);
  return { userId: text(record, 'userId'), sessionId: text(record, 'sessionId'), message: text(record, 'message'), ...messageId(record) };
}

/**
 * Checks the ids in the body of `POST /chat/confirm` and keeps the rest as the answer, untouched: the
 * controller hands it to core's check (`checkFunctionResponses`), which refuses what the runner refuses.
 */
export function parseConfirmRequest(body: unknown): ConfirmRequest {
  const record = asRecord(body);
  const answer = Object.fromEntries(Object.entries(record).filter(([key]) => !ID_FIELDS.has(key)));
  return { userId: text(record, 'userId'), sessionId: text(record, 'sessionId'), confirmationId: text(record, 'confirmationId'), ...messageId(record), answer };
}

/** The fields of a `POST /chat/confirm` body that say what is answered, not what the answer is. */
const ID_FIELDS = new Set(['userId', 'sessionId', 'confirmationId', 'messageId']);

/** Checks the body of `POST /chat/credential`: exactly one of `redirectUrl`, `credential` or `cancelled: true`. */
export function parseCredentialRequest(body: unknown): CredentialRequestAnswer {
  const record = asRecord(body);
  const base = { userId: text(record, 'userId'), sessionId: text(record, 'sessionId'), credentialId: text(record, 'credentialId'), ...messageId(record) };
  if (typeof record.redirectUrl === 'string') return { ...base, answer: { redirectUrl: record.redirectUrl } };
  if (typeof record.credential === 'object' && record.credential !== null) return { ...base, answer: { credential: record.credential as AuthCredential } };
  if (record.cancelled === true) return { ...base, answer: { cancelled: true } };
  throw new BadRequestException('Send "redirectUrl" (OAuth2), "credential" (API key, token) or "cancelled": true.');
}

/** The optional `messageId`: absent, or a non-empty string. */
function messageId(record: Record<string, unknown>): { messageId?: string } {
  return record.messageId === undefined ? {} : { messageId: text(record, 'messageId') };
}

function asRecord(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestException('The body must be a JSON object.');
  return body as Record<string, unknown>;
}

function text(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value.trim() === '') throw new BadRequestException(`"${key}" must be a non-empty string.`);
  return value;
}
