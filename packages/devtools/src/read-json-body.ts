import type { IncomingMessage } from 'node:http';
import { DevApiError } from './dev-api-error';

/** Bodies larger than this are refused: the API takes messages and tool arguments, not uploads. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request's JSON body (an empty body is `{}`); `BAD_REQUEST` for invalid JSON, non-objects or oversized bodies. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new DevApiError('BAD_REQUEST', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DevApiError('BAD_REQUEST', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DevApiError('BAD_REQUEST', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}
