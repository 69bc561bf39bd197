import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * The messages one MCP session sent over SSE, kept in memory so that a client whose stream dropped
 * resumes it (`GET` with `Last-Event-ID`) and gets what it missed, the call's result included. Holds the
 * most recent `maxBytes` of messages (JSON length); older ones are dropped first, and a stream resumed
 * from a dropped event fails (the SDK answers with an error; the client sends its request again).
 */
export class McpEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private bytes = 0;
  private sequence = 0;

  constructor(private readonly maxBytes: number) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const event = { id: `${++this.sequence}`, streamId, message, bytes: JSON.stringify(message).length };
    this.events.push(event);
    this.bytes += event.bytes;
    while (this.bytes > this.maxBytes && this.events.length > 0) this.bytes -= this.events.shift()!.bytes;
    return event.id;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.events.find((event) => event.id === lastEventId);
    if (!last) throw new Error(`Event ${lastEventId} is not (or no longer) kept; send the request again`);
    for (const event of this.events) {
      // The priming event the SDK stores first has an empty message: nothing to replay.
      if (event.streamId === last.streamId && Number(event.id) > Number(last.id) && Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return last.streamId;
  }
}
