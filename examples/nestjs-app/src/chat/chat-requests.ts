import { BadRequestException } from '@nestjs/common';

/** Body of `POST /chat`. */
export interface ChatRequest {
  /** Who is chatting. A real app takes this from its authentication, not from the body. */
  userId: string;
  /** The conversation to continue; created on first use. */
  sessionId: string;
  message: string;
}

/** Body of `POST /chat/confirm`: the user's answer to a `confirmation` event. */
export interface ConfirmRequest {
  userId: string;
  sessionId: string;
  /** Id of the `toolsmith_request_confirmation` function call being answered. */
  confirmationId: string;
  confirmed: boolean;
  /** Optional data for the tool (for example an edited amount). */
  payload?: unknown;
}

/** Checks the body of `POST /chat`; a bad body is a 400 before any streaming starts. */
export function parseChatRequest(body: unknown): ChatRequest {
  const record = asRecord(body);
  return { userId: text(record, 'userId'), sessionId: text(record, 'sessionId'), message: text(record, 'message') };
}

/** Checks the body of `POST /chat/confirm`. */
export function parseConfirmRequest(body: unknown): ConfirmRequest {
  const record = asRecord(body);
  if (typeof record.confirmed !== 'boolean') throw new BadRequestException('"confirmed" must be true or false.');
  const request: ConfirmRequest = {
    userId: text(record, 'userId'),
    sessionId: text(record, 'sessionId'),
    confirmationId: text(record, 'confirmationId'),
    confirmed: record.confirmed,
  };
  if (record.payload !== undefined) request.payload = record.payload;
  return request;
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
