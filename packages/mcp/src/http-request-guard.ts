import type { IncomingMessage } from 'node:http';

/** Why a request was refused before the MCP transport saw it: the HTTP status and a message for the client. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** Addresses that accept connections on every interface: no Host allow-list can be derived from them. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '', '[::]']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The `Host` header values a server bound to `bindHost:port` answers (DNS-rebinding protection): the bind
 * address itself (and the loopback names for a loopback bind), with and without the port. `undefined`
 * for a wildcard bind with no explicit list: then the operator must give `allowedHosts`.
 */
export function defaultAllowedHosts(bindHost: string, port: number): string[] | undefined {
  if (WILDCARD_HOSTS.has(bindHost)) return undefined;
  const names = LOOPBACK_HOSTS.has(bindHost) ? ['127.0.0.1', 'localhost', '[::1]'] : [bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost];
  return names.flatMap((name) => [name, `${name}:${port}`]);
}

/**
 * Checks `Host` against the allow-list, and `Origin` (sent by browsers) against the allowed origins:
 * by default only a page served by this very host may call it, so a web page elsewhere cannot drive
 * the tools through the user's browser. Clients that are not browsers send no `Origin`.
 */
export function checkHostAndOrigin(request: IncomingMessage, allowedHosts: readonly string[] | undefined, allowedOrigins: readonly string[] | undefined): Refusal | undefined {
  const host = request.headers.host;
  if (allowedHosts && (host === undefined || !allowedHosts.includes(host))) {
    return { status: 403, message: `Invalid Host header ${JSON.stringify(host ?? '')}` };
  }
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  const allowed = allowedOrigins ?? (host ? [`http://${host}`, `https://${host}`] : []);
  return allowed.includes(origin) ? undefined : { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
}

/** The outcome of {@link readJsonBody}: the parsed body, or the refusal to send. */
export type BodyResult = { ok: true; body: unknown } | { ok: false; refusal: Refusal };

/**
 * Reads a request body of at most `maxBytes` and parses it as JSON. A larger body is refused (413)
 * as soon as the count passes the limit — from `Content-Length` before reading anything, else while
 * streaming — and the rest is never buffered.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number, onBytes?: (count: number) => void): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, refusal: { status: 413, message: `Request body is larger than ${maxBytes} bytes`, headers: { connection: 'close' } } };
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge);
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
      onBytes?.(chunk.length);
      if (received > maxBytes) {
        // Stop reading (the socket closes after the 413 is sent); nothing past the limit is buffered.
        stop();
        request.pause();
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      try {
        resolve({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, refusal: { status: 400, message: 'Request body is not valid JSON' } });
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
