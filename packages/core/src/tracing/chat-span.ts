import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { Content } from '../model/content';
import type { FinishReason } from '../model/finish-reason';
import type { Usage } from '../model/llm-response';
import type { ProviderExchange } from '../model/provider-exchange';
import { markForwarding } from '../model/generator-iterator';
import { PROVIDER_ATTEMPT_EVENT, TraceAttribute } from './gen-ai-conventions';
import { outputMessagesJson } from './gen-ai-messages';
import type { OtelApiModule } from './otel-api';
import { markFailed } from './span-status';
import { setUsageAttributes } from './usage-attributes';
import { thrownMessage } from '../errors/thrown-message';
import { redactSecretText } from '../redaction/secret-redaction';
import type { Event } from '../events/event';

/**
 * The `chat {model}` span of one model call: started before the request is sent, given the model's
 * complete response, ended once the call's outcome is known (a response, or the error that ended it).
 */
export class ChatSpan {
  private ended = false;
  /** The model's error, once a callback answered for the failed call ({@link ChatSpan.recovered}). */
  private recoveredFrom?: { code: string; message?: string };

  constructor(
    private readonly api: OtelApiModule,
    private readonly span: Span,
    /** The context with this span active: the model's own work (e.g. its HTTP request) runs in it. */
    private readonly context: Context,
    private readonly recordContent: boolean,
  ) {}

  /**
   * The model's response stream, started and read with this span active, so spans the provider's SDK or
   * an HTTP instrumentation makes nest under `chat` (when a context manager is registered).
   */
  active<T>(start: () => AsyncIterable<T>): AsyncIterable<T> {
    const { api, context } = this;
    const stream = api.context.with(context, start);
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = api.context.with(context, () => stream[Symbol.asyncIterator]());
        // Read as for await reads them: next once, now; return once, at the close.
        const next = iterator.next;
        const forwarding = {
          next: () => api.context.with(context, () => next.call(iterator)),
          return: (value?: unknown) => {
            const close = iterator.return;
            // A generator's close, forwarded, may be finished as the generator's own (flow/close-model-parts.ts).
            markForwarding(forwarding, iterator, next, close);
            return close ? api.context.with(context, () => close.call(iterator, value)) : Promise.resolve({ done: true as const, value: undefined as T });
          },
        };
        return forwarding;
      },
    };
  }

  /**
   * The adapter's observer for this call (`GenerateOptions.onProviderExchange`): each attempt becomes a
   * `toolsmith.provider.attempt` event with its number, latency and error code; with content recording,
   * also the request body as the adapter sent it (JSON) and the error's message (secret-looking text redacted).
   */
  readonly observeExchange = (exchange: ProviderExchange): void => {
    const attributes: Attributes = {
      [TraceAttribute.PROVIDER_ATTEMPT]: exchange.attempt,
      [TraceAttribute.PROVIDER_LATENCY_MS]: exchange.latencyMs,
    };
    if (exchange.error) attributes[TraceAttribute.ERROR_TYPE] = exchange.error.code;
    if (this.recordContent) {
      attributes[TraceAttribute.PROVIDER_REQUEST_BODY] = bodyJson(exchange.body);
      // Redacted as the span's status message is (a provider's error may echo the key it was sent).
      if (exchange.error) attributes[TraceAttribute.PROVIDER_ERROR_MESSAGE] = redactSecretText(exchange.error.message);
    }
    this.span.addEvent(PROVIDER_ATTEMPT_EVENT, attributes);
  };

  /**
   * Records the call's response as the boundary check copied it (the event's): id, finish reason (and its
   * content when opted in); a response that reports an error marks the span failed with it. Not its token
   * counts ({@link ChatSpan.usage}). The raw response is read by the check alone, each member once.
   */
  response(response: RecordedResponse): void {
    const attributes: Attributes = {};
    if (response.responseId !== undefined) attributes[TraceAttribute.RESPONSE_ID] = response.responseId;
    const { finishReason, error } = response;
    const reason = finishReason && (finishReason.raw ?? finishReason.unified);
    if (reason !== undefined) attributes[TraceAttribute.RESPONSE_FINISH_REASONS] = [reason];
    if (this.recordContent) attributes[TraceAttribute.OUTPUT_MESSAGES] = outputMessagesJson(response.content, reason);
    this.span.setAttributes(attributes);
    // Its message redacted as the event's is (a provider may echo a key in it).
    if (error) markFailed(this.api, this.span, error.code, redactSecretText(error.message), this.recordContent);
  }

  /**
   * The model call failed and an onModelError callback answered for it: the span ends failed with `error`
   * (at the step), unless the run ends on another error then; its counts are those it was given so far.
   */
  recovered(error: { code: string; message?: string }): void {
    this.recoveredFrom = error;
  }

  /** True once the call's counts are all given: the span ended, or the call failed and a callback recovered it. */
  get counted(): boolean {
    return this.ended || this.recoveredFrom !== undefined;
  }

  /** Records the call's token counts, as the boundary check copied them (the counts its event holds); none once {@link ChatSpan.counted}. */
  usage(usage: Usage | undefined): void {
    if (this.counted || !usage) return;
    const attributes: Attributes = {};
    setUsageAttributes(attributes, usage);
    this.span.setAttributes(attributes);
  }

  /** Ends the span failed with the error `event` reports: its code and its message (redacted, as the event has it). */
  endAs(event: Event): void {
    this.end({ code: event.errorCode!, message: event.errorMessage });
  }

  /** Ends the span, failed when `error` is given, else with the model's error when a callback recovered the call. Only the first call counts. */
  end(error: { code: string; message?: string } | undefined = this.recoveredFrom): void {
    if (this.ended) return;
    this.ended = true;
    if (error) markFailed(this.api, this.span, error.code, error.message, this.recordContent);
    this.span.end();
  }
}

/** What the `chat` span records of a response: the boundary check's copy (flow/model-response-check.ts), never the model's own object. */
export interface RecordedResponse {
  readonly responseId: string | undefined;
  readonly content: Content | undefined;
  readonly finishReason: FinishReason | undefined;
  readonly error: { readonly code: string; readonly message: string } | undefined;
}

/** The body as JSON; binary data (a `Uint8Array`) as base64, so that it stays readable and whole. */
function bodyJson(body: unknown): string {
  try {
    return JSON.stringify(body, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value)) ?? 'null';
  } catch (error) {
    return JSON.stringify({ unserializable: thrownMessage(error) });
  }
}
