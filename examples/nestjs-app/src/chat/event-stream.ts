import type { ServerResponse } from 'node:http';
import { confirmationRequests, credentialRequests } from '@toolsmith/core';
import type { Event } from '@toolsmith/core';

/**
 * Writes a run's events to an HTTP response as Server-Sent Events and ends it. Each event is one SSE
 * message whose `event:` says what it is (`partial`, `tool-call`, `confirmation`, `credential`, `tool-response`,
 * `final`, `error`) and whose `data:` is the event's JSON. A last `done` message ends the stream. When
 * the client disconnects, `abort` is called so the run (model call, tools) stops.
 */
export async function writeEventStream(response: ServerResponse, events: AsyncIterable<Event>, abort: AbortController): Promise<void> {
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  response.setHeader('Cache-Control', 'no-cache, no-transform');
  response.setHeader('Connection', 'keep-alive');
  // Stops proxies such as nginx from buffering the stream.
  response.setHeader('X-Accel-Buffering', 'no');
  response.flushHeaders();
  response.on('close', () => {
    if (!response.writableEnded) abort.abort(new Error('The client disconnected.'));
  });
  try {
    for await (const event of events) {
      if (response.writableEnded || abort.signal.aborted) break;
      response.write(message(kindOf(event), JSON.stringify(event), event.id));
    }
    response.write(message('done', '{}'));
  } catch (thrown) {
    // The runner turns failures into error events; this only guards against a broken session store.
    const text = thrown instanceof Error ? thrown.message : String(thrown);
    response.write(message('error', JSON.stringify({ errorCode: 'STREAM_FAILED', errorMessage: text })));
  } finally {
    response.end();
  }
}

/** What a client does with the event, named for it. */
export function kindOf(event: Event): string {
  if (event.errorCode) return 'error';
  if (event.partial) return 'partial';
  // Only the runner's own requests: a model that names a call "toolsmith_request_confirmation" asks nothing of the user.
  if (confirmationRequests(event).length > 0) return 'confirmation';
  if (credentialRequests(event).length > 0) return 'credential';
  const calls = event.functionCalls();
  if (calls.length > 0) return 'tool-call';
  if (event.functionResponses().length > 0 && !event.isFinalResponse()) return 'tool-response';
  return event.isFinalResponse() ? 'final' : 'event';
}

function message(event: string, data: string, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${data}\n\n`;
}
