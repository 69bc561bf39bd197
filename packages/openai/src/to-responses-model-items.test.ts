import type { Content } from '@toolsmith/core';
import { toResponsesModelItems } from './to-responses-model-items';

const openai = (data: Record<string, unknown>) => ({ provider: 'openai', data });
const reasoning = (id: string, encrypted?: string) => ({ type: 'reasoning', id, summary: [], ...(encrypted ? { encrypted_content: encrypted } : {}) });
const message = (id: string, text: string, phase?: string) => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
  ...(phase ? { phase } : {}),
});

describe('toResponsesModelItems', () => {
  it('sends every item back in its order with its id: reasoning, several messages (phase kept), calls with their fc_ id and sent arguments', () => {
    const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":"x","unit":null}', status: 'completed' };
    const content: Content = {
      role: 'model',
      parts: [
        { text: 'Planning.', thought: true },
        { providerData: openai(reasoning('rs_1', 'enc')) },
        { text: 'Let me look.', providerData: openai(message('msg_1', 'Let me look.', 'commentary')) },
        { functionCall: { id: 'call_1', name: 'lookup', args: { q: 'x' } }, providerData: openai(call) },
        { providerData: openai(reasoning('rs_2', 'enc')) },
        { providerData: openai({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } }) },
        { text: 'Found it.', providerData: openai(message('msg_2', 'Found it.', 'final_answer')) },
      ],
    };
    expect(toResponsesModelItems(content)).toEqual([
      reasoning('rs_1', 'enc'),
      message('msg_1', 'Let me look.', 'commentary'),
      call,
      reasoning('rs_2', 'enc'),
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
      message('msg_2', 'Found it.', 'final_answer'),
    ]);
  });

  it('sends the text a part now has (a callback changed it) in the item, and calls changed since as plain call items', () => {
    const content: Content = {
      role: 'model',
      parts: [
        { text: 'Edited.', providerData: openai(message('msg_1', 'Original.')) },
        { functionCall: { id: 'call_9', name: 'other', args: { a: 1 } }, providerData: openai({ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{}' }) },
      ],
    };
    expect(toResponsesModelItems(content)).toEqual([
      { ...message('msg_1', 'Original.'), content: [{ type: 'output_text', text: 'Edited.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_9', name: 'other', arguments: '{"a":1}' },
    ]);
  });

  it('joins text without an item into one assistant message, and leaves out a reasoning item not followed by an item with an id', () => {
    // The shape an earlier version stored (and the real API refused with a 400): reasoning, then text and a call without their items.
    const content: Content = {
      role: 'model',
      parts: [{ providerData: openai(reasoning('rs_1', 'enc')) }, { text: 'Checking ' }, { text: 'now.' }, { functionCall: { id: 'call_1', name: 'lookup', args: {} } }],
    };
    expect(toResponsesModelItems(content)).toEqual([
      { role: 'assistant', content: 'Checking now.' },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
    ]);
  });

  it('with store: false leaves out reasoning items without encrypted content (OpenAI cannot resolve their ids)', () => {
    const content: Content = {
      role: 'model',
      parts: [
        { providerData: openai(reasoning('rs_1')) },
        { text: 'A.', providerData: openai(message('msg_1', 'A.')) },
        { providerData: openai(reasoning('rs_2', 'enc')) },
        { text: 'B.', providerData: openai(message('msg_2', 'B.')) },
      ],
    };
    expect(toResponsesModelItems(content, { store: false }).map((item) => (item as { id: string }).id)).toEqual(['msg_1', 'rs_2', 'msg_2']);
    expect(toResponsesModelItems(content).map((item) => (item as { id: string }).id)).toEqual(['rs_1', 'msg_1', 'rs_2', 'msg_2']);
  });

  it('skips other providers’ data', () => {
    const content: Content = { role: 'model', parts: [{ providerData: { provider: 'anthropic', data: { type: 'server_tool_use' } } }, { text: 'Hi.' }] };
    expect(toResponsesModelItems(content)).toEqual([{ role: 'assistant', content: 'Hi.' }]);
  });
});
