// An agent for the dev tools' tests, offline on ScriptedModel: an order lookup (writes state), a
// refund that needs approval above 100 €, a long-running export, and a cancellation that asks a
// question about the order as it was placed (`editable: false`: no edit). The module exports what
// `toolsmith web` looks for: the root `agent` and the `providers` of its toolset.
import { Content, FunctionResponse, GenerateOptions, Injectable, ProviderError, LlmAgent, LlmRequest, LlmResponse, Model, Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { ScriptedModel, ScriptedTurn } from '@toolsmith/core/testing';

/** A promise with its resolve, for tests that wait on what a tool did (no timers). */
function deferred<T = void>(): Promise<T> & { resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return Object.assign(promise, { resolve });
}

/** Settled when `slowReport` starts, and when its run's signal aborts (with the reason); {@link resetSlowReport} makes new ones. */
export let slowReportStarted = deferred();
export let slowReportAborted = deferred<unknown>();

/** New `slowReport` barriers, for a second slow call in the same test file. */
export function resetSlowReport(): void {
  slowReportStarted = deferred();
  slowReportAborted = deferred<unknown>();
}

/** The refunds paid, shared by runs and by tools run alone. */
@Injectable()
export class Ledger {
  readonly refunds: Array<{ orderId: string; amount: number; approvedBy?: string }> = [];
  readonly cancelled: string[] = [];
}

@Toolset()
export class DeskTools {
  constructor(private readonly ledger: Ledger) {}

  @Tool({ description: 'Looks up an order by id and remembers it as the last order.' })
  lookupOrder(@Param('orderId', { description: 'Order id, e.g. A-1001' }) orderId: string, ctx: ToolContext) {
    ctx.state.set('lastOrder', orderId);
    return { orderId, status: 'shipped', total: 120 };
  }

  @Tool({
    description: 'Refunds an amount in euros of an order. Refunds above 100 € need a manager.',
    requireConfirmation: (args: { amount: number }) => args.amount > 100,
    confirmationHint: (args: { orderId: string; amount: number }) => `Refund ${args.amount} € for order ${args.orderId}?`,
  })
  refund(
    @Param('orderId', { description: 'Order id' }) orderId: string,
    @Param('amount', { description: 'Amount in euros', schema: { type: 'number', minimum: 1 } }) amount: number,
    ctx: ToolContext,
  ) {
    const approvedBy = (ctx.toolConfirmation?.payload as { approver?: string } | undefined)?.approver;
    this.ledger.refunds.push({ orderId, amount, ...(approvedBy ? { approvedBy } : {}) });
    return { status: 'refunded', orderId, amount, ...(approvedBy ? { approvedBy } : {}) };
  }

  @Tool({ description: 'Builds a slow report: runs until the run is cancelled.' })
  async slowReport(ctx: ToolContext) {
    slowReportStarted.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    slowReportAborted.resolve(ctx.signal.reason);
    return { status: 'cancelled' };
  }

  @Tool({ description: 'Starts exporting a table; the export finishes later.', longRunning: true })
  startExport(@Param('table', { enum: ['orders', 'customers'] }) table: string, ctx: ToolContext) {
    // Run again with the answer to an update's question: the answer is the export's next update.
    const asked = ctx.toolConfirmation?.update;
    if (asked) {
      if (ctx.toolConfirmation!.decision === 'reject') {
        asked.willContinue = false; // the export ends with this response
        return { status: 'cancelled', table, ...(ctx.toolConfirmation!.message ? { because: ctx.toolConfirmation!.message } : {}) };
      }
      return { status: 'running', table, answer: ctx.toolConfirmation!.payload ?? null };
    }
    return { status: 'pending', ticket: `export-${table}` };
  }

  @Tool({ description: 'Cancels an order as it was placed; a manager confirms first.' })
  cancelOrder(@Param('orderId', { description: 'Order id' }) orderId: string, ctx: ToolContext) {
    // The question is about this order: answering it with other arguments makes no sense, so no edit.
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Cancel order ${orderId} as it was placed?`, editable: false });
      return { status: 'waiting for the manager' };
    }
    this.ledger.cancelled.push(orderId);
    return { status: 'cancelled', orderId };
  }
}

const REFUND = /refund\s+(\d+)\D*?order\s+([A-Z]-\d+)/i;
const LOOKUP = /(?:look\s*up|find|where is)\D*?order\s+([A-Z]-\d+)/i;
const EXPORT = /export\s+(?:the\s+)?(orders|customers)/i;
const CANCEL = /cancel\s+order\s+([A-Z]-\d+)/i;

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const responses = last.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (responses.length > 0) return responses.map(describe).join(' ');
  const text = last.parts.map((p) => p.text ?? '').join(' ');
  if (/break the model/i.test(text)) return new ProviderError('PROVIDER_ERROR', 'The desk model is down.', { provider: 'scripted', statusCode: 400 });
  let match = REFUND.exec(text);
  if (match) return { calls: [{ name: 'refund', args: { orderId: match[2].toUpperCase(), amount: Number(match[1]) } }] };
  match = LOOKUP.exec(text);
  if (match) return { calls: [{ name: 'lookupOrder', args: { orderId: match[1].toUpperCase() } }] };
  if (/slowly/i.test(text)) return 'Here is a long answer, streamed in small pieces.';
  // Echoes text as is, U+2028 and U+2029 (which scraped text and model output carry) included.
  const repeat = /^repeat after me: /i.exec(text);
  if (repeat) return `You said: ${text.slice(repeat[0].length)}`;
  if (/slow report/i.test(text)) return { calls: [{ name: 'slowReport', args: {} }] };
  match = EXPORT.exec(text);
  if (match) return { calls: [{ name: 'startExport', args: { table: match[1].toLowerCase() } }] };
  match = CANCEL.exec(text);
  if (match) return { calls: [{ name: 'cancelOrder', args: { orderId: match[1].toUpperCase() } }] };
  return 'I can look up orders, refund them and export tables. Try: "Look up order A-1001".';
}

function describe(response: FunctionResponse): string {
  const body = response.response as Record<string, unknown> & { error?: { code: string; message: string } };
  if (response.isError) {
    if (body.error?.code !== 'TOOL_CALL_REJECTED') return `That failed: ${body.error?.code}.`;
    // A rejection with the person's words quotes them: `… and said: "…". Do not retry …`.
    const said = /and said: (".*")\. Do not retry/.exec(body.error.message)?.[1];
    if (response.name === 'cancelOrder') return said ? `The order stays; the manager said ${said}.` : 'The order stays: the manager did not approve.';
    return said ? `The refund was not approved; the manager said ${said}.` : 'The refund was not approved, so nothing was refunded.';
  }
  // An edited call's response: the result, and the arguments the person ran it with.
  const result = (body.argumentsEditedByUser ? body.result : body) as Record<string, unknown>;
  const edited = body.argumentsEditedByUser ? ' with the amount you set' : '';
  if (response.name === 'lookupOrder') return `Order ${result.orderId} has shipped; its total is ${result.total} €.`;
  if (response.name === 'refund') {
    if (result.status !== 'refunded') return `The refund's result: ${JSON.stringify(result)}.`;
    return `Refunded ${result.amount} € for order ${result.orderId}${result.approvedBy ? ` (approved by ${result.approvedBy})` : ''}${edited}.`;
  }
  if (response.name === 'cancelOrder') return result.status === 'cancelled' ? `Order ${result.orderId} is cancelled.` : `The cancellation's result: ${JSON.stringify(result)}.`;
  if (response.name === 'startExport') return result.status === 'pending' ? `The export has started (ticket ${result.ticket}).` : `The export is ${result.status}.`;
  return JSON.stringify(result);
}

/** The conversation's model: reads the request as a model would and answers from the script. */
export function createDeskModel(): ScriptedModel {
  return new ScriptedModel((request) => answer(request), { modelName: 'desk-script', streamChunkChars: 6 });
}

/** Released by a test to let a held stream go on (see {@link HeldStreamModel}). */
export const streamRelease = deferred();

/**
 * The desk model, except that an answer to a message saying "slowly" stops after its first streamed
 * piece until {@link streamRelease} settles: a test can see the partial text on the page mid-stream.
 */
class HeldStreamModel implements Model {
  readonly provider: string;
  readonly modelName: string;
  constructor(private readonly inner: Model) {
    this.provider = inner.provider;
    this.modelName = inner.modelName;
  }
  async *generate(request: LlmRequest, options?: GenerateOptions): AsyncGenerator<LlmResponse, void, undefined> {
    const last = request.contents[request.contents.length - 1];
    const hold = last.parts.some((p) => p.text !== undefined && /slowly/i.test(p.text));
    let pieces = 0;
    for await (const response of this.inner.generate(request, options)) {
      if (hold && response.partial && pieces++ === 1) await streamRelease;
      yield response;
    }
  }
}

export const ledger = new Ledger();
export const providers = [{ provide: Ledger, useValue: ledger }];

export const agent = new LlmAgent({
  name: 'desk_agent',
  model: new HeldStreamModel(createDeskModel()),
  instruction: 'You run the order desk.',
  tools: [DeskTools],
});

/** For tests that build a message by hand. */
export function userText(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}
