import type Anthropic from '@anthropic-ai/sdk';
import { type FunctionCall, type LlmResponse, type Part, ProviderError } from '@toolsmith/core';
import { argsFromJsonText, argsFromJsonValue, providerDataPart, signedBy } from '@toolsmith/core/adapter-kit';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { mapAnthropicUsage } from './map-anthropic-response';
import { ANTHROPIC_PROVIDER } from './provider-tool';

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; json: string; initialInput: unknown }
  /** Any other block (server tools, `redacted_thinking`): kept whole; a server tool's input arrives in fragments. */
  | { type: 'provider'; block: Record<string, unknown>; json: string };

/**
 * Turns Messages API stream events into Toolsmith responses: a `partial` response per text (or
 * thinking) delta and per `input_json_delta` of a tool call (a `partialFunctionCall` part with the input
 * text so far), then one complete response with every block in order, tool inputs assembled from
 * their `input_json_delta` fragments, usage and stop reason. A stream that ends before `message_stop`
 * was cut off and is reported as `PROVIDER_RESPONSE_INVALID`, never as a short answer.
 */
export async function* assembleAnthropicStream(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): AsyncGenerator<LlmResponse> {
  const blocks: Block[] = [];
  let usage: Partial<Anthropic.Usage> = {};
  let stopReason: string | null = null;
  let messageId: string | undefined;
  let model: string | undefined;
  let stopped = false;

  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        messageId = event.message.id;
        model = event.message.model;
        usage = { ...event.message.usage };
        break;
      case 'content_block_start':
        blocks[event.index] = startBlock(event.content_block);
        break;
      case 'content_block_delta': {
        const partial = applyDelta(blocks[event.index], event.delta);
        if (partial) yield { partial: true, content: { role: 'model', parts: [partial] } };
        break;
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason;
        // Counts in `message_delta` are cumulative; a null means "unchanged since message_start".
        for (const [key, value] of Object.entries(event.usage)) {
          if (value !== null && value !== undefined) (usage as Record<string, unknown>)[key] = value;
        }
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) {
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', 'Anthropic stream ended before message_stop; the response is incomplete.', {
      provider: ANTHROPIC_PROVIDER,
    });
  }
  yield {
    content: { role: 'model', parts: blocks.flatMap(toPart) },
    turnComplete: true,
    finishReason: mapAnthropicStopReason(stopReason),
    usage: mapAnthropicUsage(usage),
    responseId: messageId,
    providerMetadata: { anthropic: { messageId, model } },
  };
}

function startBlock(block: Anthropic.RawContentBlockStartEvent['content_block']): Block {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, json: '', initialInput: block.input };
    default:
      return { type: 'provider', block: { ...block }, json: '' };
  }
}

/** Applies one delta to its block; returns the partial part to announce, if any. */
function applyDelta(block: Block | undefined, delta: Anthropic.RawContentBlockDelta): Part | undefined {
  if (!block) {
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', 'Anthropic stream sent a delta for a content block it never started.', {
      provider: ANTHROPIC_PROVIDER,
    });
  }
  if (delta.type === 'text_delta' && block.type === 'text') {
    block.text += delta.text;
    return delta.text ? { text: delta.text } : undefined;
  }
  if (delta.type === 'input_json_delta' && (block.type === 'tool_use' || block.type === 'provider')) {
    block.json += delta.partial_json;
    // A client tool's input as it grows; a server tool's input is the provider's own business.
    return block.type === 'tool_use' && delta.partial_json ? { partialFunctionCall: { id: block.id, name: block.name, argsText: block.json, argsDelta: delta.partial_json } } : undefined;
  }
  if (delta.type === 'thinking_delta' && block.type === 'thinking') {
    block.thinking += delta.thinking;
    return delta.thinking ? { text: delta.thinking, thought: true } : undefined;
  }
  if (delta.type === 'signature_delta' && block.type === 'thinking') block.signature += delta.signature;
  // A compaction block (context management's compact edit, a beta): its summary and opaque metadata, kept to send back.
  const compaction = delta as unknown as { type: string; content?: string | null; encrypted_content?: string | null };
  if (compaction.type === 'compaction_delta' && block.type === 'provider' && block.block.type === 'compaction') {
    block.block.content = compaction.content ?? null;
    block.block.encrypted_content = compaction.encrypted_content ?? null;
  }
  return undefined;
}

function toPart(block: Block): Part[] {
  switch (block.type) {
    case 'text':
      return block.text ? [{ text: block.text }] : [];
    case 'thinking':
      return [{ text: block.thinking, thought: true, ...signedBy(ANTHROPIC_PROVIDER, block.signature) }];
    case 'tool_use':
      return [{ functionCall: { id: block.id, name: block.name, args: toolArgs(block) } }];
    case 'provider':
      return [providerDataPart(ANTHROPIC_PROVIDER, block.json.trim() === '' ? block.block : { ...block.block, input: serverToolInput(block.json) })];
  }
}

/** A server tool's streamed input; the API sends it back as given, so it must be an object. */
function serverToolInput(json: string): Record<string, unknown> {
  const parsed = argsFromJsonText(json);
  if (typeof parsed === 'string') {
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Anthropic streamed a server tool input that is not a JSON object: ${json}`, {
      provider: ANTHROPIC_PROVIDER,
    });
  }
  return parsed;
}

/**
 * The assembled input: no fragments means the input of `content_block_start` (`{}` for a tool without
 * parameters); text that does not parse is passed on raw, so the executor answers the model with a
 * malformed-arguments error instead of the run crashing.
 */
function toolArgs(block: Extract<Block, { type: 'tool_use' }>): FunctionCall['args'] {
  return block.json.trim() === '' ? argsFromJsonValue(block.initialInput) : argsFromJsonText(block.json);
}
