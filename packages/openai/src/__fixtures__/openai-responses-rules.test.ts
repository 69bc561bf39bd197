import { join } from 'node:path';
import { readRecording } from '@toolsmith/core/testing';
import { responsesReasoningProblems } from './openai-responses-rules';

type Item = Record<string, unknown>;
const recorded = (name: string) => readRecording(join(__dirname, 'recorded', `${name}.json`));

describe('responsesReasoningProblems (the wire fakes’ rule, learned from the recorded 400)', () => {
  it('refuses the recorded request the real API refused, with the real error message', () => {
    const recording = recorded('responses-reasoning-without-following-item-400');
    const issued = (recording.interactions[0].response.json as { output: Item[] }).output;
    const refused = (recording.interactions[1].request!.body as { input: Item[] }).input;
    const apiError = (recording.interactions[1].response.json as { error: { message: string } }).error.message;
    expect(responsesReasoningProblems(refused, issued)).toEqual([apiError]);
  });

  it.each(['responses-web-search-reasoning', 'responses-mcp-reasoning', 'responses-phase-commentary-call', 'responses-reasoning-function-call'])(
    'accepts the next request the real API accepted in %s',
    (name) => {
      const recording = recorded(name);
      const issued = (recording.interactions[0].response.json as { output: Item[] }).output;
      expect(responsesReasoningProblems((recording.interactions[1].request!.body as { input: Item[] }).input, issued)).toEqual([]);
    },
  );

  it('refuses reasoning sent first with the other items after it (the shape earlier adapters sent), and reasoning it never issued', () => {
    const recording = recorded('responses-web-search-reasoning');
    const issued = (recording.interactions[0].response.json as { output: Item[] }).output;
    const reordered = [...issued.filter((item) => item.type === 'reasoning'), ...issued.filter((item) => item.type !== 'reasoning')];
    expect(responsesReasoningProblems(reordered, issued)).toEqual([expect.stringContaining('without its required following item'), expect.stringContaining('without its required following item')]);
    expect(responsesReasoningProblems([{ type: 'reasoning', id: 'rs_x', summary: [] }], issued)).toEqual(["Item with id 'rs_x' not found."]);
  });
});
