import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { LlmResponse } from '../model/llm-response';
import { TraceAttribute } from './gen-ai-conventions';
import { outputMessagesJson } from './gen-ai-messages';
import type { OtelApiModule } from './otel-api';
import { markFailed } from './span-status';
import { setUsageAttributes } from './usage-attributes';

/**
 * The `chat {model}` span of one model call: started before the request is sent, given the model's
 * complete response, ended once the call's outcome is known (a response, or the error that ended it).
 */
export class ChatSpan {
  private ended = false;

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
        return {
          next: () => api.context.with(context, () => iterator.next()),
          return: (value?: unknown) => (iterator.return ? api.context.with(context, () => iterator.return!(value)) : Promise.resolve({ done: true as const, value: undefined as T })),
        };
      },
    };
  }

  /** Records the model's complete response: id, finish reason, token counts (and its content when opted in). */
  response(response: LlmResponse): void {
    const attributes: Attributes = {};
    if (response.responseId !== undefined) attributes[TraceAttribute.RESPONSE_ID] = response.responseId;
    const reason = response.finishReason?.raw ?? response.finishReason?.unified;
    if (reason !== undefined) attributes[TraceAttribute.RESPONSE_FINISH_REASONS] = [reason];
    setUsageAttributes(attributes, response.usage);
    if (this.recordContent) attributes[TraceAttribute.OUTPUT_MESSAGES] = outputMessagesJson(response);
    this.span.setAttributes(attributes);
    if (response.error) markFailed(this.api, this.span, response.error.code, response.error.message, this.recordContent);
  }

  /** Ends the span, failed when `error` is given. Only the first call counts (a recovered call ends once, failed). */
  end(error?: { code: string; message?: string }): void {
    if (this.ended) return;
    this.ended = true;
    if (error) markFailed(this.api, this.span, error.code, error.message, this.recordContent);
    this.span.end();
  }
}
