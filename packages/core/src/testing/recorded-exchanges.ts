import { readFileSync } from 'node:fs';
import { type RecordedRequest, type WireReply, type WireServer, parseSseFixture, startWireServer } from './wire-server';

/**
 * One HTTP exchange recorded from a provider's real API (another project's test cassette or fixture):
 * the request the client sent, when the source holds it, and the API's answer.
 */
export interface RecordedExchange {
  /** The recorded request; `null` when the source holds only the response. */
  request: { method: string; path: string; body: unknown } | null;
  /** The API's answer: a JSON body, Server-Sent Events (the raw `text/event-stream` text) or plain text. */
  response: { status: number; headers?: Record<string, string>; json?: unknown; sse?: string; text?: string };
}

/** A file of recorded exchanges, in the order they happened, with where they were copied from. */
export interface Recording {
  /** How the data was recorded and trimmed. */
  recorded: string;
  /** The public source: repository, path and commit (SOURCES.md lists them too). */
  source: { repository: string; path: string; commit: string };
  /** The exchanges, in order. */
  interactions: RecordedExchange[];
}

/** Reads a {@link Recording} (JSON). */
export function readRecording(file: string): Recording {
  return JSON.parse(readFileSync(file, 'utf8')) as Recording;
}

/** The recorded answer of `exchange` as a {@link WireReply}: its status, headers and body, SSE replayed event by event. */
export function recordedReply(exchange: RecordedExchange): WireReply {
  const { status, headers, json, sse, text } = exchange.response;
  if (sse !== undefined) return { status, headers: { ...headers, 'content-type': 'text/event-stream' }, sse: parseSseFixture(sse) };
  if (json !== undefined) return { status, headers: { ...headers, 'content-type': 'application/json' }, text: JSON.stringify(json) };
  return { status, headers, text: text ?? '' };
}

/**
 * Starts a {@link WireServer} that answers the n-th request with the n-th recorded answer of
 * `exchanges`, so an adapter (through its official SDK) meets exactly what the real API sent. A request
 * beyond the recording fails the test: it lands in `handlerErrors`.
 */
export function startReplayServer(exchanges: readonly RecordedExchange[]): Promise<WireServer> {
  return startWireServer((_request: RecordedRequest, index: number) => {
    const exchange = exchanges[index];
    if (!exchange) throw new Error(`request ${index + 1} was not recorded (the recording has ${exchanges.length})`);
    return recordedReply(exchange);
  });
}
