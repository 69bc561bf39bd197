import type { Content, FunctionCall, Part } from '@toolsmith/core';
import { providerDataOf } from '@toolsmith/core/adapter-kit';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { FOLLOWED_BY } from './map-openai-response';
import { OPENAI_PROVIDER } from './provider-tool';

/** Options of {@link toResponsesModelItems}. */
export interface ResponsesReplayOptions {
  /** The model's `store` option: with `false`, reasoning items without `encrypted_content` cannot be resolved by OpenAI and are left out. */
  store?: boolean;
}

/**
 * The Responses API input items of one model turn, in the order the API returned them, with their ids:
 * each part that came from an output item (its `providerData`) goes back as that item — a `message` with
 * its id, `phase` and annotations (its text as the part now says), a `function_call` with its `fc_` id and
 * the arguments text the model sent, a `reasoning` item whole (encrypted content and summary included),
 * a hosted tool's item (`web_search_call`, …) whole, a `compaction` item as its id and encrypted content — so each reasoning item is immediately followed by
 * the item that followed it. Parts without an item (a session of another provider, a callback's text)
 * go as before: consecutive text as one assistant message, calls as `function_call` items by `call_id`.
 * A reasoning item that would not be immediately followed by the item that followed it in its response (by
 * id; a callback dropped that item, say) is left out (the API refuses it: "Item 'rs_…' of type 'reasoning' was
 * provided without its required following item"), and so, when
 * `store` is false, is one without `encrypted_content` (OpenAI could not resolve its id).
 */
export function toResponsesModelItems(content: Content, options: ResponsesReplayOptions = {}): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text: string | undefined;
  const flushText = () => {
    if (text) items.push({ role: 'assistant', content: text });
    text = undefined;
  };
  for (const part of content.parts) {
    const item = providerDataOf(part, OPENAI_PROVIDER);
    if (part.functionCall) {
      flushText();
      items.push(functionCallItem(part.functionCall, item));
    } else if (part.text !== undefined && !part.thought) {
      if (item?.type === 'message') {
        flushText();
        items.push(messageItem(part, item));
      } else {
        text = (text ?? '') + part.text;
      }
    } else if (item && !part.thought) {
      flushText();
      items.push(item.type === 'compaction' ? compactionItem(item) : (item as unknown as ResponseInputItem));
    }
  }
  flushText();
  return withoutUnpairedReasoning(items, options.store);
}

/** The reasoning item as the API returned it, without the id of its following item (see {@link FOLLOWED_BY}). */
function reasoningItem(item: Record<string, unknown>): ResponseInputItem {
  const { [FOLLOWED_BY]: _followedBy, ...returned } = item;
  return returned as unknown as ResponseInputItem;
}

/** The `message` item the part came from, with the part's text (a callback may have changed it). */
function messageItem(part: Part, item: Record<string, unknown>): ResponseInputItem {
  const content = item.content as Array<{ type: string; text?: string; refusal?: string }>;
  const sameText = content.map((piece) => (piece.type === 'output_text' ? piece.text : piece.refusal)).join('') === part.text;
  return { ...item, content: sameText ? content : [{ type: 'output_text', text: part.text, annotations: [] }] } as unknown as ResponseInputItem;
}

/**
 * A `compaction` output item (server-side compaction, `context_management`) as the input item the API
 * takes back: its id and encrypted content, nothing else (`created_by` is an output field).
 */
function compactionItem(item: Record<string, unknown>): ResponseInputItem {
  return { type: 'compaction', encrypted_content: item.encrypted_content as string, ...(typeof item.id === 'string' ? { id: item.id } : {}) };
}

/** The `function_call` item of a call: with the item's id and the arguments text the model sent, when the call is still the item's. */
function functionCallItem(call: FunctionCall, item: Record<string, unknown> | undefined): ResponseInputItem {
  const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
  if (item?.type !== 'function_call' || item.call_id !== call.id || item.name !== call.name) {
    return { type: 'function_call', call_id: call.id, name: call.name, arguments: args };
  }
  return { ...item, arguments: typeof item.arguments === 'string' ? item.arguments : args } as unknown as ResponseInputItem;
}

/**
 * Leaves out reasoning items OpenAI would refuse: not followed by the item that followed it in its response
 * (by id; a reasoning item kept by an earlier release, without {@link FOLLOWED_BY}: by an item with an id), or
 * (store false) without encrypted content. Checked from the end, against the items actually sent.
 */
function withoutUnpairedReasoning(items: ResponseInputItem[], store: boolean | undefined): ResponseInputItem[] {
  const kept: ResponseInputItem[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as unknown as Record<string, unknown>;
    if (item.type === 'reasoning') {
      const next = (kept[0] as { id?: unknown } | undefined)?.id;
      if (typeof next !== 'string') continue;
      if (FOLLOWED_BY in item && item[FOLLOWED_BY] !== next) continue;
      if (store === false && typeof item.encrypted_content !== 'string') continue;
      kept.unshift(reasoningItem(item));
      continue;
    }
    kept.unshift(items[index]);
  }
  return kept;
}
