import type { FunctionResponse, LlmRequest } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { ScriptedModelOptions, ScriptedTurn } from '@toolsmith/core/testing';
import type { Order } from '../orders/order';

const ORDER_ID = /\b[A-Z]-\d{4}\b/;

/**
 * A rule-based stand-in for a real model, so the app runs offline: it picks a tool from keywords of the
 * user's message ("orders", an order id, "cancel", "return") and phrases the tool results as an answer.
 * Everything around it (runner, Nest DI, confirmation, SSE) runs for real.
 */
export function offlineModel(options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedModel(answer, { modelName: 'offline-demo', ...options });
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents.at(-1);
  const responses = (last?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (responses.length > 0) return responses.map(describe).join(' ');

  const text = (last?.parts ?? []).map((p) => p.text ?? '').join(' ');
  const orderId = ORDER_ID.exec(text)?.[0];
  if (orderId && /cancel/i.test(text)) return { calls: [{ name: 'orders_cancel', args: { orderId } }] };
  if (orderId && /return/i.test(text)) return { calls: [{ name: 'orders_return', args: { orderId } }] };
  if (orderId) return { calls: [{ name: 'orders_get', args: { orderId } }] };
  if (/orders?\b/i.test(text)) return { calls: [{ name: 'orders_list' }] };
  return 'I can list your orders, look one up (for example "where is A-1001?"), cancel one ("cancel A-1002") or return one ("return A-1001").';
}

function describe(response: FunctionResponse): string {
  if (response.isError) {
    const error = response.response.error as { message?: string } | undefined;
    return `Sorry, that did not work: ${error?.message ?? 'unknown error'}`;
  }
  // A call the user approved with edited arguments: `{ result, argumentsEditedByUser }`.
  const edited = response.response.argumentsEditedByUser !== undefined;
  const body = (edited ? response.response.result : response.response) as { orders?: Order[]; order?: Order; status?: string };
  if (body.orders) {
    if (body.orders.length === 0) return 'You have no orders.';
    return `You have ${body.orders.length} orders: ${body.orders.map((o) => `${o.id} (${o.status})`).join(', ')}.`;
  }
  if (body.order) {
    const { id, status, total } = body.order;
    if (response.name === 'orders_return') return `A courier will collect order ${id}.`;
    return response.name === 'orders_cancel'
      ? `Order ${id} is now cancelled${edited ? ' (the order you chose)' : ''}.`
      : `Order ${id} is ${status}; total ${(total / 100).toFixed(2)} EUR.`;
  }
  if (body.status) return `Done: ${body.status}.`; // e.g. the user's own answer instead of the tool's
  return JSON.stringify(response.response);
}
