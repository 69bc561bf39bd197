import type { RecordedRequest, WireReply } from '../wire-server';

/** A model turn the conformance kit scripts: text, function calls, or both. */
export interface ConformanceTurn {
  /** The text the model answers with; absent for a turn of function calls only. */
  text?: string;
  /** Arguments are what the model sends: an object, or raw JSON text. */
  calls?: Array<{ id: string; name: string; args: Record<string, unknown> | string }>;
  /**
   * Reasoning the model did before it answered, sent in the provider's signed form (Anthropic: a
   * `thinking` block with a signature; Gemini: a `thoughtSignature` on the first part; OpenAI Responses: a
   * `reasoning` item with encrypted content, before the turn's other items), which the real
   * API wants back unchanged. Only scripted for codecs whose {@link WireCodec.rules} have `signedReasoning`.
   */
  reasoning?: string;
  /**
   * The provider paused this turn before it was done (Anthropic `pause_turn`, after a server tool call
   * it has not run yet); the adapter must continue it. Only scripted for codecs whose
   * {@link WireCodec.rules} have `pausedTurns`.
   */
  paused?: boolean;
}

/** A function result as an adapter sent it back on the wire, read by {@link WireCodec.toolResults}. */
export interface WireToolResult {
  /** The call id, when the provider's wire format carries one. */
  id?: string;
  /** The tool name, when the provider's wire format carries one. */
  name?: string;
  /** The result object (parsed when the wire carries it as JSON text). */
  response: Record<string, unknown>;
  /** The provider's own error flag (e.g. Anthropic's `is_error`), when its wire format has one. */
  isError?: boolean;
}

/**
 * The provider-specific half of the adapter conformance kit: how to encode a model turn (and a
 * provider error) as that provider's HTTP reply, and how to read what the adapter sent. Everything
 * else (the tools, the runner, the scenarios, the assertions) is shared.
 */
export interface WireCodec {
  /**
   * The provider's reply carrying `turn`: JSON for a plain request, Server-Sent Events when `request`
   * asked for streaming (the codec decides from the request: a `stream` flag, a streaming endpoint…).
   * Streamed text must be split into at least two deltas.
   */
  reply(turn: ConformanceTurn, request: RecordedRequest): WireReply;
  /** The provider's error reply for an HTTP `status` (a 429 must carry a `retry-after: 2` header). */
  error(status: number, message: string): WireReply;
  /** True when `request` asked for a streamed answer. */
  isStreaming(request: RecordedRequest): boolean;
  /** Names of the function tools declared in `request`. */
  toolNames(request: RecordedRequest): string[];
  /** The function results carried by `request`, in the order they appear on the wire. */
  toolResults(request: RecordedRequest): WireToolResult[];
  /** Which provider rules on the history this codec knows (and checks in {@link WireCodec.historyProblems}); the kit runs their scenarios. */
  rules?: { signedReasoning?: boolean; pausedTurns?: boolean };
  /**
   * What the real API would refuse in `request`, given the turns this codec answered before it in the
   * same scenario (in order): signed reasoning or a signature not sent back unchanged, a paused turn not
   * continued with its content as it was sent, a server tool call left without its result, an OpenAI
   * reasoning item not immediately followed by the item that followed it, … The kit answers such a
   * request with the codec's 400 error (the problems as its message), as the real API would, and fails
   * the scenario.
   */
  historyProblems?(request: RecordedRequest, earlier: readonly ConformanceTurn[]): string[];
}
