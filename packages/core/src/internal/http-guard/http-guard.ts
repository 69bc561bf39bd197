import type { IncomingMessage } from 'node:http';
import { httpGuardMessages } from '../../errors/messages';
import { HttpGuardError } from './http-guard-error';
import { carriesBody, isJsonType, readJsonBody } from './read-json-body';

/**
 * Decides who sends a request (for example from its `Authorization` header): return the caller, or
 * `undefined` (or throw) to refuse it with 401 `UNAUTHORIZED`.
 */
export type HttpAuthenticate<C> = (request: IncomingMessage) => C | undefined | Promise<C | undefined>;

/** Options of {@link HttpGuard}. */
export interface HttpGuardOptions<C> {
  /** `Host` header values to answer; `undefined` answers any (a wildcard bind). Set later with {@link HttpGuard.allowHosts}. */
  allowedHosts?: readonly string[];
  /** Browser origins allowed to call; default: only a page served by the request's own (allowed) host. */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes; larger ones get 413 `BODY_TOO_LARGE`. */
  maxBodyBytes: number;
  /** Who the caller is (see {@link HttpAuthenticate}); without it every request passes as `anonymous`. */
  authenticate?: HttpAuthenticate<C>;
  /** Anonymous caller used without `authenticate`. */
  anonymous?: C;
  /** The 401 message's advice (e.g. where the token comes from). */
  unauthorizedHint?: string;
  /** Headers of a 401 answer. Default `WWW-Authenticate: Bearer`. */
  unauthorizedHeaders?: Record<string, string>;
}

/**
 * The checks every HTTP server Toolsmith ships runs before a handler sees a request (the dev server of
 * `toolsmith web`/`api`, `serveMcp`'s Streamable HTTP endpoint): Host allow-list (DNS rebinding),
 * Origin (cross-site pages), the caller (a per-launch token or the server's own hook), the method, and
 * for bodies JSON only (415), a size limit (413) and valid JSON (400). Each refusal is an
 * {@link HttpGuardError} with a stable code and the status to answer.
 */
export class HttpGuard<C> {
  private allowedHosts: readonly string[] | undefined;

  constructor(private readonly options: HttpGuardOptions<C>) {
    this.allowedHosts = options.allowedHosts;
  }

  /** Sets the Host allow-list (known once the server listens and its port is picked). */
  allowHosts(hosts: readonly string[] | undefined): void {
    this.allowedHosts = hosts;
  }

  /** `HOST_NOT_ALLOWED` unless `Host` is allowed; `ORIGIN_NOT_ALLOWED` when a browser's `Origin` is not this server's (nor an allowed one). */
  checkHostAndOrigin(request: IncomingMessage): void {
    const host = request.headers.host;
    // Host names are case-insensitive (RFC 9110 §4.2.3): `LOCALHOST:3000` is `localhost:3000`.
    if (this.allowedHosts && (host === undefined || !this.allowedHosts.some((allowed) => allowed.toLowerCase() === host.toLowerCase()))) {
      throw new HttpGuardError('HOST_NOT_ALLOWED', httpGuardMessages.hostNotAllowed(host));
    }
    const origin = request.headers.origin;
    if (origin === undefined) return; // not a browser, or a same-origin GET
    const allowed = this.options.allowedOrigins ?? (host ? [`http://${host}`, `https://${host}`] : []);
    if (!allowed.includes(origin)) throw new HttpGuardError('ORIGIN_NOT_ALLOWED', httpGuardMessages.originNotAllowed(origin));
  }

  /** The caller, as `authenticate` decides; `UNAUTHORIZED` when it refuses or fails. */
  async authenticate(request: IncomingMessage): Promise<C> {
    const hook = this.options.authenticate;
    if (!hook) return this.options.anonymous as C;
    let caller: C | undefined;
    try {
      caller = await hook(request);
    } catch {
      caller = undefined;
    }
    if (caller === undefined || caller === null) {
      throw new HttpGuardError('UNAUTHORIZED', httpGuardMessages.unauthorized(this.options.unauthorizedHint ?? 'this server requires credentials.'), this.options.unauthorizedHeaders ?? { 'www-authenticate': 'Bearer' });
    }
    return caller;
  }

  /** Host and Origin, then the caller. */
  async admit(request: IncomingMessage): Promise<C> {
    this.checkHostAndOrigin(request);
    return this.authenticate(request);
  }

  /** `METHOD_NOT_ALLOWED` (with `Allow`) unless the request's method is one of `allowed`. */
  checkMethod(request: IncomingMessage, allowed: readonly string[], path: string): void {
    if (request.method === undefined || !allowed.includes(request.method)) {
      throw new HttpGuardError('METHOD_NOT_ALLOWED', httpGuardMessages.methodNotAllowed(request.method, path, allowed), { allow: allowed.join(', ') });
    }
  }

  /**
   * `UNSUPPORTED_MEDIA_TYPE` for a request carrying a body of another type than JSON, whatever its method: a route
   * that reads no body (a `GET`, a `DELETE`) refuses a form or `text/plain` one as a route that reads one does.
   */
  checkBodyType(request: IncomingMessage): void {
    const type = request.headers['content-type'];
    if (carriesBody(request) && !isJsonType(type)) throw new HttpGuardError('UNSUPPORTED_MEDIA_TYPE', httpGuardMessages.unsupportedMediaType(type));
  }

  /** Reads the JSON body: `UNSUPPORTED_MEDIA_TYPE`, `BODY_TOO_LARGE` or `MALFORMED_JSON` when it is not one. */
  readJsonBody(request: IncomingMessage): Promise<unknown> {
    return readJsonBody(request, this.options.maxBodyBytes);
  }

  /**
   * The body of a request whose route reads none (a `GET`, a `DELETE`), checked as {@link readJsonBody} checks one
   * (`UNSUPPORTED_MEDIA_TYPE`, `BODY_TOO_LARGE`, `MALFORMED_JSON`) and then left unused: such a route refuses
   * what a route that reads a body would. `undefined` when the request carries none (an empty chunked body included).
   */
  async readUnusedBody(request: IncomingMessage): Promise<unknown> {
    return carriesBody(request) ? readJsonBody(request, this.options.maxBodyBytes, true) : undefined;
  }
}

/** The request's path, not decoded; `MALFORMED_URL` when the request target is not a URL path. */
export function requestPath(request: IncomingMessage): string {
  const target = request.url ?? '/';
  try {
    if (!target.startsWith('/')) throw new TypeError('not a path');
    return new URL(target, 'http://localhost').pathname;
  } catch {
    throw new HttpGuardError('MALFORMED_URL', httpGuardMessages.malformedUrl(target));
  }
}

/** A percent-decoded path segment; `MALFORMED_URL` (400, not a crash) for malformed percent-encoding. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpGuardError('MALFORMED_URL', httpGuardMessages.malformedUrl(segment));
  }
}
