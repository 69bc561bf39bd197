import type { Content } from '@toolsmith/core';
import { responsesReasoningProblems } from './__fixtures__/openai-responses-rules';
import { convertToOpenAIResponsesInput } from './convert-to-openai-messages';
import { mapOpenAIResponse } from './map-openai-response';

// A gpt-5 turn in the shape of the recorded responses-phase-commentary-call.json: reasoning, a commentary
// message, reasoning, a call. The real API takes a reasoning item back only right before the item that
// followed it in its response (recorded/responses-reasoning-without-following-item-400.json).
const output = [
  { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'E1' },
  { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', phase: 'commentary', content: [{ type: 'output_text', text: 'Let me look that up.', annotations: [] }] },
  { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'E2' },
  { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
];
const turn = mapOpenAIResponse({ status: 'completed', incomplete_details: null, usage: undefined, error: null, output } as never, new Map()).content!;
const replay = (model: Content) =>
  convertToOpenAIResponsesInput([
    { role: 'user', parts: [{ text: 'Paris?' }] },
    model,
    { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'get_weather', response: { t: 20 } } }] },
  ]) as unknown as Array<Record<string, unknown>>;
const ids = (input: Array<Record<string, unknown>>) => input.map((item) => item.id ?? item.type ?? item.role);

describe('Responses API: a reasoning item goes back only right before the item that followed it', () => {
  it('the turn as returned goes back whole, each reasoning item unchanged (as the API returned it)', () => {
    const input = replay(turn);
    expect(ids(input)).toEqual(['user', 'rs_1', 'msg_1', 'rs_2', 'fc_1', 'function_call_output']);
    expect(input[1]).toEqual(output[0]);
    expect(responsesReasoningProblems(input, output)).toEqual([]);
  });

  it('an afterModel callback dropped the message between rs_1 and rs_2: rs_1 is left out, rs_2 goes before fc_1', () => {
    const input = replay({ role: 'model', parts: turn.parts.filter((part) => part.text === undefined) });
    expect(ids(input)).toEqual(['user', 'rs_2', 'fc_1', 'function_call_output']);
    expect(responsesReasoningProblems(input, output)).toEqual([]);
  });

  it('the call dropped (the message kept): rs_2 is left out, rs_1 goes before msg_1', () => {
    const input = replay({ role: 'model', parts: turn.parts.filter((part) => !part.functionCall) });
    // The orphaned result goes as the user's text (pairToolResults).
    expect(ids(input)).toEqual(['user', 'rs_1', 'msg_1', 'user']);
    expect(responsesReasoningProblems(input, output)).toEqual([]);
  });
});
