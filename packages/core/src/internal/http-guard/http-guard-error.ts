import { ToolsmithError } from '../../errors/toolsmith-error';

/** Codes of {@link HttpGuardError}: why the HTTP guard refused a request. */
export type HttpGuardErrorCode =
  | 'HOST_NOT_ALLOWED'
  | 'ORIGIN_NOT_ALLOWED'
  | 'UNAUTHORIZED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BODY_TOO_LARGE'
  | 'MALFORMED_JSON'
  | 'MALFORMED_URL';

const STATUS: Record<HttpGuardErrorCode, number> = {
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  UNAUTHORIZED: 401,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BODY_TOO_LARGE: 413,
  MALFORMED_JSON: 400,
  MALFORMED_URL: 400,
};

/**
 * A request the shared HTTP guard refused before any handler saw it. Each server writes it in its own
 * JSON error format, with {@link HttpGuardError.status} and {@link HttpGuardError.headers}.
 */
export class HttpGuardError extends ToolsmithError<HttpGuardErrorCode> {
  /** Headers the refusal must carry (`Allow` for 405, `WWW-Authenticate` for 401, `Connection: close` for 413). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: HttpGuardErrorCode, message: string, headers: Record<string, string> = {}) {
    super(code, message);
    this.headers = headers;
  }

  /** The HTTP status this refusal is answered with. */
  get status(): number {
    return STATUS[this.code];
  }
}
