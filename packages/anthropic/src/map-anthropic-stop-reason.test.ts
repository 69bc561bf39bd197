import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'max-tokens'],
    ['model_context_window_exceeded', 'max-tokens'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
  ])('maps %s to %s and keeps the raw value', (raw, unified) => {
    expect(mapAnthropicStopReason(raw)).toEqual({ unified, raw });
  });

  it('maps a missing stop reason to other', () => {
    expect(mapAnthropicStopReason(null)).toEqual({ unified: 'other' });
  });
});
