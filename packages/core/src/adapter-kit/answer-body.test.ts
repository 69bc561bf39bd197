import { ProviderError } from '../errors/provider-errors';
import { answerExcerpt, checkEventStreamStart, readJsonAnswer } from './answer-body';

const source = { provider: 'acme', providerName: 'Acme', expected: 'a completion' };

/** A 200 response whose body comes in these chunks, then ends (or fails with `failWith`). */
function response(chunks: string[], contentType: string | undefined, failWith?: Error): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(encoder.encode(chunks[next++]));
      else if (failWith) controller.error(failWith);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: contentType ? { 'content-type': contentType } : {} });
}

describe('answerExcerpt', () => {
  it('makes whitespace one space, redacts secret-looking strings and keeps at most 200 characters', () => {
    expect(answerExcerpt('  <html>\n\n  <body>key sk-abcdefghijklmnop1234 used</body>  ')).toBe('<html> <body>key [redacted] used</body>');
    // The key starts 4 characters before the cut: alone, those 4 (`sk-a`) would not look like a key.
    const excerpt = answerExcerpt(`${'x'.repeat(195)} sk-abcdefghijklmnopqrstuvwxyz ${'y'.repeat(500)}`);
    expect(excerpt).toBe(`${'x'.repeat(195)}…`);
    expect(answerExcerpt('')).toBe('');
  });

  it('collapses whitespace before it redacts and cuts, so a secret after much whitespace is never shown in part', () => {
    // 1,200 raw characters were read before whitespace was collapsed: the key, cut there, leaked its start.
    const page = `<html>${'\n'.repeat(1184)}Bearer abcdef0123456789abcdef0123 more`;
    expect(answerExcerpt(page)).toBe('<html> Bearer [redacted] more');
    const json = `<html>${'\n'.repeat(1156)}<script>var c = {"api_key": "abcdef0123456789abcdef0123"}</script></html>`;
    expect(answerExcerpt(json)).toBe('<html> <script>var c = {"api_key": "[redacted]"}</script></html>');
  });

  it('drops a word the cut splits, so no partial token ends the excerpt', () => {
    expect(answerExcerpt(`${'word '.repeat(39)}tokenthatgoeson and more`)).toBe(`${'word '.repeat(39).trimEnd()}…`);
    expect(answerExcerpt('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('readJsonAnswer', () => {
  it('parses a JSON body whatever its content type says', async () => {
    await expect(readJsonAnswer(source, response(['{"a":', '1}'], 'text/plain'))).resolves.toEqual({ a: 1 });
  });

  it.each([
    ['an HTML page sent as JSON', ['<html>Bad gateway</html>'], 'application/json', '(200, application/json) is text, not JSON (it starts "<html>Bad gateway</html>"'],
    ['an empty body', [], undefined, '(200, no content type) is empty'],
    ['JSON cut short', ['{"id":"x","choices":[{"ind'], 'application/json', 'is JSON cut short or malformed (it starts "{"id":"x","choices":[{"ind"'],
  ])('refuses %s as PROVIDER_RESPONSE_INVALID, not retryable, saying what came', async (_name, chunks, contentType, says) => {
    const error = await readJsonAnswer(source, response(chunks, contentType)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'acme', statusCode: 200, isRetryable: false });
    expect((error as Error).message).toContain("Acme's answer could not be read: it is not a completion: the body ");
    expect((error as Error).message).toContain(says);
  });

  it('refuses a body the connection cut mid-read as PROVIDER_RESPONSE_INVALID, not retryable, with what fetch threw as its cause', async () => {
    const cut = new TypeError('terminated');
    const error = await readJsonAnswer(source, response(['{"id":'], 'application/json', cut)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, isRetryable: false, cause: cut });
    expect((error as Error).message).toBe("Acme's answer broke off: the connection was lost while its body (200, application/json) was read: terminated.");
  });
});

describe('checkEventStreamStart', () => {
  it.each([
    ['data lines', ['data: {"a":1}\n\n', 'data: [DONE]\n\n']],
    ['named events', ['event: message_start\ndata: {}\n\n']],
    ['a comment first, in pieces', ['\n: keep', '-alive\n\ndata: 1\n\n']],
    ['bare-CR line endings after a blank line', ['\r', 'data: {"a":1}\r\r', 'data: [DONE]\r\r']],
  ])('lets a stream that starts with %s through, every byte still there for the SDK', async (_name, chunks) => {
    const stream = response(chunks, 'text/event-stream');
    await checkEventStreamStart(source, stream);
    await expect(stream.text()).resolves.toBe(chunks.join(''));
  });

  it.each([
    ['an HTML page with 200', ['<!DOCTYPE html>\n<html><title>502</title>', '</html>'], 'text/html', '(200, text/html) is not an event stream (it starts "<!DOCTYPE html> <html><title>502</title>"'],
    ['HTML sent as text/event-stream', ['<html>proxy error</html>'], 'text/event-stream', '(200, text/event-stream) is not an event stream (it starts "<html>proxy error</html>"'],
    ['a JSON answer to a streaming request', ['{"id":"x"}'], 'application/json', 'is not an event stream (it starts "{"id":"x"}"'],
    ['an empty body', [], 'text/event-stream', '(200, text/event-stream) is empty'],
  ])('refuses %s as PROVIDER_RESPONSE_INVALID, saying what came', async (_name, chunks, contentType, says) => {
    const error = await checkEventStreamStart({ ...source, expected: 'a stream' }, response(chunks, contentType)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, isRetryable: false });
    expect((error as Error).message).toContain("Acme's answer could not be read: it is not a stream: the body ");
    expect((error as Error).message).toContain(says);
  });

  it('leaves a body that fails before its first line to the stream that reads it', async () => {
    const stream = response([], 'text/event-stream', new TypeError('terminated'));
    await expect(checkEventStreamStart(source, stream)).resolves.toBeUndefined();
  });
});
