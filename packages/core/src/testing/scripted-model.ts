import { randomUUID } from 'node:crypto';
import { ProviderError } from '../errors/provider-errors';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { Content, Part } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { GenerateOptions, Model } from '../model/model';

/** A function call in a scripted turn; `id` defaults to a fresh unique id. */
export interface ScriptedCall {
  /** The tool to call, as the model would name it. */
  name: string;
  /** The arguments: an object, or raw JSON text (to test parsing and repairs); default `{}`. */
  args?: Record<string, unknown> | string;
  /** The call id; set it to answer or assert on the call by id. */
  id?: string;
}

/**
 * One scripted model answer: plain text; `{ text?, calls? }`; a full {@link LlmResponse} (recognised by
 * its `content`); or an `Error` to throw (as a provider failure would).
 */
export type ScriptedTurn = string | { text?: string; calls?: ScriptedCall[] } | LlmResponse | Error;

/** The script: a list of turns used in order, or a function choosing the turn from the request. */
export type Script = ScriptedTurn[] | ((request: LlmRequest, callIndex: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Reported as {@link Model.provider}. Default `scripted`. */
  provider?: string;
  /** Reported as {@link Model.modelName}. Default `scripted-model`. */
  modelName?: string;
  /** Waits this long before answering (abortable), to simulate latency. */
  latencyMs?: number;
  /** When streaming, the text is sent in chunks of this many characters. Default 8. */
  streamChunkChars?: number;
  /** Keep every request in `requests` (default true); turn off for long benchmarks so memory stays flat. */
  keepRequests?: boolean;
}

/**
 * A real {@link Model} that replays scripted turns, for tests and offline demos. Everything around it
 * (runner, tools, callbacks, sessions) runs for real. Every request it receives is kept in `requests`.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel([
 *   { calls: [{ name: 'getWeather', args: { city: 'Paris' } }] },
 *   'It is sunny in Paris.',
 * ]);
 * ```
 */
export class ScriptedModel implements Model {
  /** The `provider` option; default `scripted`. */
  readonly provider: string;
  /** The `modelName` option; default `scripted-model`. */
  readonly modelName: string;
  /** Every request received, in order (the live objects the runner built); empty with `keepRequests: false`. */
  readonly requests: LlmRequest[] = [];
  private calls = 0;
  private readonly options: ScriptedModelOptions;

  constructor(
    private readonly script: Script,
    options: ScriptedModelOptions = {},
  ) {
    this.provider = options.provider ?? 'scripted';
    this.modelName = options.modelName ?? 'scripted-model';
    this.options = options;
  }

  /**
   * Answers with the next turn of the script (or the function's turn), throwing it when it is an `Error`.
   * When streaming, the text first comes in `partial` chunks of `streamChunkChars`. No turn left: `PROVIDER_RESPONSE_INVALID`.
   */
  async *generate(request: LlmRequest, options: GenerateOptions = {}): AsyncGenerator<LlmResponse, void, undefined> {
    const index = this.calls++;
    if (this.options.keepRequests !== false) this.requests.push(request);
    if (this.options.latencyMs) await delay(this.options.latencyMs, options.signal);
    if (options.signal?.aborted) throw new RunAbortedError(options.signal.reason);
    const turn = await this.turnFor(request, index);
    if (turn instanceof Error) throw turn;
    const response = toResponse(turn);
    if (options.stream) {
      const chunk = this.options.streamChunkChars ?? 8;
      for (const part of response.content?.parts ?? []) {
        if (part.text === undefined || part.thought) continue;
        for (let i = 0; i < part.text.length; i += chunk) {
          yield { content: { role: 'model', parts: [{ text: part.text.slice(i, i + chunk) }] }, partial: true };
        }
      }
    }
    yield response;
  }

  /** How many times `generate` was called. */
  get callCount(): number {
    return this.calls;
  }

  private async turnFor(request: LlmRequest, index: number): Promise<ScriptedTurn> {
    if (typeof this.script === 'function') return this.script(request, index);
    if (index >= this.script.length) {
      throw new ProviderError(
        'PROVIDER_RESPONSE_INVALID',
        `ScriptedModel has no turn left: it was called ${index + 1} times but the script has ${this.script.length} turns.`,
        { provider: this.provider },
      );
    }
    return this.script[index];
  }
}

function toResponse(turn: Exclude<ScriptedTurn, Error>): LlmResponse {
  if (typeof turn === 'string') return complete({ role: 'model', parts: [{ text: turn }] }, false);
  if ('content' in turn) return { turnComplete: true, ...turn, partial: false };
  const shorthand = turn as { text?: string; calls?: ScriptedCall[] };
  const parts: Part[] = [];
  if (shorthand.text !== undefined) parts.push({ text: shorthand.text });
  for (const call of shorthand.calls ?? []) {
    parts.push({ functionCall: { id: call.id ?? `call_${randomUUID()}`, name: call.name, args: call.args ?? {} } });
  }
  return complete({ role: 'model', parts }, (shorthand.calls?.length ?? 0) > 0);
}

function complete(content: Content, hasCalls: boolean): LlmResponse {
  return {
    content,
    turnComplete: true,
    finishReason: { unified: hasCalls ? 'tool-calls' : 'stop' },
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RunAbortedError(signal.reason));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAbortedError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
