import type { ServerResponse } from 'node:http';
import { SseStream } from './sse-stream';

/** What a stream wrote, on a stand-in for Node's response (the writes are all SseStream makes). */
function written(): { response: ServerResponse; text: () => string } {
  const chunks: string[] = [];
  const response = {
    writableEnded: false,
    destroyed: false,
    writeHead: () => response,
    flushHeaders: () => undefined,
    write: (chunk: string) => (chunks.push(chunk), true),
    end: () => undefined,
  };
  return { response: response as unknown as ServerResponse, text: () => chunks.join('') };
}

describe('SseStream', () => {
  it('escapes U+2028 and U+2029: a reader splitting lines as JavaScript does keeps the whole data line', () => {
    const { response, text } = written();
    const data = { text: 'scraped\u2028line\u2029paragraph\u2028' };
    new SseStream(response).send('event', data);
    const wire = text();
    expect(wire).not.toMatch(/[\u2028\u2029]/);
    // What a page's `/^data: (.*)$/m` reads: the whole JSON, the same value back.
    expect(JSON.parse(/^data: (.*)$/m.exec(wire)![1])).toEqual(data);
    expect(wire).toBe(`event: event\ndata: ${JSON.stringify(data).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}\n\n`);
  });

  it('writes JSON as it is when it holds no line separator', () => {
    const { response, text } = written();
    new SseStream(response).send('end', { ok: true, text: 'a\nb' });
    expect(text()).toBe('event: end\ndata: {"ok":true,"text":"a\\nb"}\n\n');
  });
});
