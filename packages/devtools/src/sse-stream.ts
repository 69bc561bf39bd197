import type { ServerResponse } from 'node:http';

/**
 * Writes Server-Sent Events on a response: `event: <name>` and one `data:` line of JSON per message
 * (JSON has no raw newlines, so one line is always enough).
 */
export class SseStream {
  constructor(private readonly response: ServerResponse) {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies that buffer (nginx) would hold partial text back until the run ends.
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
  }

  /** Sends one message; ignored once the client is gone. */
  send(event: string, data: unknown): void {
    if (this.response.writableEnded || this.response.destroyed) return;
    this.response.write(`event: ${event}\ndata: ${sseJson(data)}\n\n`);
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}

/**
 * `data` as JSON with U+2028 and U+2029 escaped: `JSON.stringify` leaves them raw, and a reader that splits
 * lines as JavaScript does (a regular expression's `.` and `$`) would cut the `data:` line there. Scraped
 * text and model output carry them.
 */
function sseJson(data: unknown): string {
  return JSON.stringify(data).replace(LINE_SEPARATORS, escapeSeparator);
}

const LINE_SEPARATORS = /[\u2028\u2029]/g;
const escapeSeparator = (separator: string): string => (separator === '\u2028' ? '\\u2028' : '\\u2029');
