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
    this.response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}
