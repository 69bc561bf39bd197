import { ProviderError } from '../errors/provider-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { thrownMessage } from '../errors/thrown-message';
import { redactKnownSecrets } from '../redaction/secret-redaction';

/** The most characters of a body an error message quotes. */
export const ANSWER_EXCERPT_CHARS = 200;

/** The most bytes {@link checkEventStreamStart} reads ahead of the SDK to tell an event stream from anything else. */
const STREAM_PEEK_BYTES = 2048;

/** Whose answer it is, and what it should have been, for the messages of {@link readJsonAnswer} and {@link checkEventStreamStart}. */
export interface AnswerSource {
  /** The provider id, e.g. `openai`, put on the error. */
  provider: string;
  /** The provider's name as users know it, e.g. `OpenAI`. */
  providerName: string;
  /** What the answer should have been, e.g. `a chat completion`. */
  expected: string;
  /**
   * The credentials the adapter sent (its API key), `[redacted]` in every form {@link redactKnownSecrets} knows
   * wherever a message quotes the answer: a proxy's page may echo a key that looks like no known kind of secret.
   */
  secrets?: readonly (string | undefined)[];
}

/**
 * The start of a body, for an error message: whitespace runs made one space, every secret-looking string
 * (`sk-…`, `Bearer …`, a JWT, …) and every one of `secrets` (the key the adapter sent, as it is or encoded)
 * `[redacted]` (a proxy's page may echo the request's key), at most {@link ANSWER_EXCERPT_CHARS} characters,
 * `…` when it was cut.
 */
export function answerExcerpt(text: string, max = ANSWER_EXCERPT_CHARS, secrets: readonly (string | undefined)[] = []): string {
  // Whitespace collapsed first, then redacted on far more than is shown, so a secret the cut would split is
  // still recognised whole, however much whitespace came before it.
  const { collapsed, more } = collapseWhitespace(text, 4 * max + 400);
  const shown = Array.from(redactKnownSecrets(collapsed, secrets));
  if (shown.length <= max && !more) return shown.join('');
  let kept = shown.slice(0, max);
  // A word the cut splits is dropped whole: the start of a token is never shown.
  if (shown[max] !== undefined && shown[max] !== ' ') {
    const lastSpace = kept.lastIndexOf(' ');
    if (lastSpace > 0) kept = kept.slice(0, lastSpace);
  }
  return kept.join('').trimEnd() + '…';
}

/** The text's start with whitespace runs made one space (and none at the start), up to `chars` characters; `more` when the text goes on. */
function collapseWhitespace(text: string, chars: number): { collapsed: string; more: boolean } {
  const runs = new RegExp(`\\s+|\\S{1,${chars}}`, 'g');
  let collapsed = '';
  for (let run = runs.exec(text); run; run = collapsed.length < chars ? runs.exec(text) : null) {
    collapsed += /\s/.test(run[0][0]!) ? (collapsed ? ' ' : '') : run[0];
  }
  if (collapsed.length < chars) return { collapsed: collapsed.trimEnd(), more: false };
  const rest = /\S/g;
  rest.lastIndex = runs.lastIndex;
  return { collapsed: collapsed.trimEnd(), more: rest.test(text) };
}

/**
 * The error for a 2xx answer that is not what was asked for (a proxy's HTML page, an empty body, JSON cut
 * short, a stream that is not a stream): `PROVIDER_RESPONSE_INVALID` with the status, never retried (the
 * server answered, and the answer may have been billed), its message saying what came: the status, the
 * content type and the body's start ({@link answerExcerpt}).
 */
export function unreadableAnswerError(source: AnswerSource, response: Pick<Response, 'status' | 'headers'>, text: string, problem: string): ProviderError {
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const start = answerExcerpt(text, ANSWER_EXCERPT_CHARS, source.secrets);
  const what = start ? `${problem} (it starts "${start}"; is the base URL the API's address, or is a proxy answering?)` : 'is empty';
  return new ProviderError(
    'PROVIDER_RESPONSE_INVALID',
    `${source.providerName}'s answer could not be read: it is not ${source.expected}: the body (${response.status}, ${contentType}) ${what}.`,
    { provider: source.provider, statusCode: response.status },
  );
}

/**
 * Reads a (non-streamed) answer's body and parses it as JSON, whatever its content type says. A body that
 * is not JSON (an HTML page sent as `application/json`, an empty body, JSON cut short or malformed) throws
 * {@link unreadableAnswerError}; a body whose connection broke while it was read (undici's `terminated`)
 * throws `PROVIDER_RESPONSE_INVALID` too, with what the fetch implementation threw as its cause. Neither is
 * retried: the provider answered, and the answer may have been billed. Use it on the raw `Response` (the
 * OpenAI and Anthropic SDKs' `.asResponse()`), so that the SDK's own parse error is never taken for a failed
 * connection.
 */
export async function readJsonAnswer(source: AnswerSource, response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const contentType = response.headers.get('content-type') ?? 'no content type';
    throw new ProviderError(
      'PROVIDER_RESPONSE_INVALID',
      `${source.providerName}'s answer broke off: the connection was lost while its body (${response.status}, ${contentType}) was read: ${thrownMessage(error)}.`,
      { provider: source.provider, statusCode: response.status, cause: error },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw unreadableAnswerError(source, response, text, /^\s*[[{]/.test(text) ? 'is JSON cut short or malformed' : 'is text, not JSON');
  }
}

/**
 * Maps a received (non-streamed) 2xx answer with `map`, so that a failure while reading it is never taken for a
 * failed connection (and the billed request sent again): what `map` throws that is not a Toolsmith error (a
 * `TypeError` on a `null` where an object belongs) becomes `PROVIDER_RESPONSE_INVALID` with the answer's status,
 * never retried; a `PROVIDER_RESPONSE_INVALID` without a status (a shape check's) gets the answer's status, in its
 * `statusCode` and message. Other Toolsmith errors (a failure the answer reports) pass through unchanged.
 */
export function mapReceivedAnswer<T>(source: AnswerSource, response: Pick<Response, 'status'>, map: () => T): T {
  try {
    return map();
  } catch (error) {
    const { status } = response;
    if (ToolsmithError.isInstance(error)) {
      const { statusCode, provider } = error as Partial<ProviderError>;
      if (error.code !== 'PROVIDER_RESPONSE_INVALID' || statusCode !== undefined) throw error;
      throw new ProviderError('PROVIDER_RESPONSE_INVALID', `${error.message.replace(/\.$/, '')} (status ${status}).`, {
        provider: provider ?? source.provider,
        statusCode: status,
        cause: error.cause,
      });
    }
    throw new ProviderError(
      'PROVIDER_RESPONSE_INVALID',
      `${source.providerName}'s answer could not be read: it is not ${source.expected} (status ${status}): ${redactKnownSecrets(thrownMessage(error), source.secrets ?? [])}.`,
      { provider: source.provider, statusCode: status, cause: error },
    );
  }
}

/**
 * Checks, before an SDK reads a streamed answer, that its body starts as a Server-Sent Events stream: its
 * first line a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). A body that does not (a proxy's
 * HTML page with 200, whatever its content type; a JSON answer to a streaming request; an empty body) throws
 * {@link unreadableAnswerError}, saying what came, instead of ending as a stream cut short. It reads at most
 * 2 KB ahead from a copy of the body (`response.clone()`, cancelled once read), so the SDK's stream still gets
 * every byte; a read that fails (the connection dropped, the call aborted) is left for that stream to report.
 */
export async function checkEventStreamStart(source: AnswerSource, response: Response): Promise<void> {
  const text = await peek(response.clone());
  if (text === undefined) return;
  const firstLine = /^[^\r\n]*/.exec(text.replace(/^\uFEFF?(?:[ \t]*(?:\r\n|\r|\n))*/, ''))![0];
  if (/^(?::|(?:data|event|id|retry)(?::|$))/.test(firstLine)) return;
  // Nobody will read the rest: the connection is let go.
  response.body?.cancel().catch(() => undefined);
  throw unreadableAnswerError(source, response, text, 'is not an event stream');
}

/** The body's first line (or first 2 KB), or `undefined` when it could not be read. */
async function peek(copy: Response): Promise<string | undefined> {
  const reader = copy.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
      if (text.length >= STREAM_PEEK_BYTES || /\S[^\r\n]*[\r\n]/.test(text)) return text;
    }
  } catch {
    return undefined;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
