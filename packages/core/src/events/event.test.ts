import { Event } from './event';

describe('Event', () => {
  const call = { id: 'c', name: 't', args: {} };

  it('knows when it is a final response', () => {
    const base = { invocationId: 'i', author: 'a' };
    expect(Event.create({ ...base, content: { role: 'model', parts: [{ text: 'hi' }] } }).isFinalResponse()).toBe(true);
    expect(Event.create({ ...base, content: { role: 'model', parts: [{ text: 'h' }] }, partial: true }).isFinalResponse()).toBe(false);
    expect(Event.create({ ...base, content: { role: 'model', parts: [{ functionCall: call }] } }).isFinalResponse()).toBe(false);
    const response = { role: 'user' as const, parts: [{ functionResponse: { id: 'c', name: 't', response: {} } }] };
    expect(Event.create({ ...base, content: response }).isFinalResponse()).toBe(false);
    expect(Event.create({ ...base, content: response, longRunningToolIds: ['c'] }).isFinalResponse()).toBe(true);
    expect(Event.create({ ...base, content: response, actions: { stateDelta: {}, artifactDelta: {}, skipSummarization: true } }).isFinalResponse()).toBe(true);
    expect(Event.create({ ...base, errorCode: 'X', errorMessage: 'x' }).isFinalResponse()).toBe(true);
  });

  it('reads text (without thoughts), calls and responses', () => {
    const event = Event.create({
      invocationId: 'i',
      author: 'a',
      content: { role: 'model', parts: [{ text: 'thinking', thought: true }, { text: 'A' }, { functionCall: call }, { text: 'B' }] },
    });
    expect(event.text()).toBe('AB');
    expect(event.functionCalls()).toEqual([call]);
  });

  it('round-trips through JSON without undefined fields', () => {
    const event = Event.create({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ text: 'x' }] }, usage: { inputTokens: 3 } });
    const json = JSON.parse(JSON.stringify(event));
    expect(Object.keys(json).sort()).toEqual(['actions', 'author', 'content', 'id', 'invocationId', 'timestamp', 'usage']);
    const back = Event.fromJSON(json);
    expect(back.toJSON()).toEqual(event.toJSON());
    expect(back.isFinalResponse()).toBe(true);
  });
});
