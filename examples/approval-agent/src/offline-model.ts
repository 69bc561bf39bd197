import type { Content, FunctionCall, FunctionResponse, LlmRequest } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn } from '@toolsmith/core/testing';

const REFUND = /refund\s+(\d+(?:\.\d+)?)\D*?order\s+([A-Z]-\d+)/i;

/**
 * A stand-in for a real model when no provider key is set: a {@link ScriptedModel} whose script reads
 * the request as a model would (the user's words, the tool results) and answers with a refund call or
 * text. The runner, the confirmation gate, the pause and the resume all run for real.
 */
export function createOfflineModel(): ScriptedModel {
  return new ScriptedModel((request) => answer(request), { modelName: 'offline-refund-script' });
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const responses = last.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (responses.length > 0) return responses.map((r) => describe(r, callOf(request.contents, r.id))).join(' ');

  const match = REFUND.exec(last.parts.map((p) => p.text ?? '').join(' '));
  if (match) return { calls: [{ name: 'refund', args: { orderId: match[2].toUpperCase(), amount: Number(match[1]) } }] };
  return "I can refund orders. Say for example 'Refund 40 for order A-1001'.";
}

function describe(response: FunctionResponse, call: FunctionCall | undefined): string {
  const args = (call?.args ?? {}) as { orderId?: string; amount?: number };
  // An edited call answers `{ result, argumentsEditedByUser }`, or `{ error, argumentsEditedByUser }` when it
  // failed; the person's own answer stands in for a result.
  const edited = response.response.argumentsEditedByUser !== undefined;
  const body = (edited && !response.isError ? response.response.result : response.response) as { amount?: number; orderId?: string; approvedBy?: string; answer?: string; error?: { code: string; message: string } };
  if (!response.isError && body.answer !== undefined) return `The approver answered instead: ${body.answer}`;
  if (!response.isError) return `Refunded ${body.amount} € for order ${body.orderId}${body.approvedBy ? ` (approved by ${body.approvedBy}${edited ? ', who changed the amount' : ''})` : ''}.`;
  if (body.error?.code === 'TOOL_CALL_REJECTED') {
    const said = /and said: "(.*)"\. Do not retry/.exec(body.error.message)?.[1];
    return `The refund of ${args.amount} € for order ${args.orderId} was not approved${said ? `: ${said}` : ', so nothing was refunded.'}`;
  }
  return `Sorry, that did not work: ${body.error?.message ?? 'unknown error'}`;
}

function callOf(contents: readonly Content[], id: string): FunctionCall | undefined {
  for (const content of contents) for (const part of content.parts) if (part.functionCall?.id === id) return part.functionCall;
  return undefined;
}
