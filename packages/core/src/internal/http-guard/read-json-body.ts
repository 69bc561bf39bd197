import type { IncomingMessage } from 'node:http';
import { httpGuardMessages } from '../../errors/messages';
import { HttpGuardError } from './http-guard-error';

/**
 * Reads a request body of at most `maxBytes` and parses it as JSON. The `Content-Type` must be
 * `application/json` (parameters such as `charset` allowed), else `UNSUPPORTED_MEDIA_TYPE` before
 * anything is read: a form or a "simple" cross-site request cannot send that type. A larger body is
 * refused (`BODY_TOO_LARGE`) as soon as the count passes the limit — from `Content-Length` before
 * reading anything, else while streaming — and the rest is never buffered. With `emptyIsNone`, a body of no
 * bytes (an empty chunked one) is `undefined`, not malformed JSON.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number, emptyIsNone = false): Promise<unknown> {
  const type = request.headers['content-type'];
  if (!isJsonType(type)) return Promise.reject(new HttpGuardError('UNSUPPORTED_MEDIA_TYPE', httpGuardMessages.unsupportedMediaType(type)));
  const tooLarge = () => new HttpGuardError('BODY_TOO_LARGE', httpGuardMessages.bodyTooLarge(maxBytes), { connection: 'close' });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        // Stop reading (the socket closes after the 413 is sent); nothing past the limit is buffered.
        stop();
        request.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      if (emptyIsNone && received === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpGuardError('MALFORMED_JSON', httpGuardMessages.malformedJson()));
      }
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

/** `application/json`, parameters such as `charset` allowed. */
export function isJsonType(type: string | undefined): boolean {
  return type !== undefined && type.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** True when the request may carry a body: a `Transfer-Encoding`, or a `Content-Length` that is not zero (`00` is zero). */
export function carriesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && !/^\s*0+\s*$/.test(length));
}
