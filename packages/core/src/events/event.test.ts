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

  it('writes its JSON in one key order, whichever of its fields are set and in whatever order they were', () => {
    const order = ['id', 'invocationId', 'author', 'branch', 'content', 'actions', 'longRunningToolIds', 'partial', 'turnComplete', 'finishReason', 'usage', 'runUsage', 'errorCode', 'errorMessage', 'errorDetails', 'output', 'customMetadata', 'timestamp'];
    const every = Event.create({
      invocationId: 'i', author: 'a', branch: 'a', content: { role: 'model', parts: [{ text: 'x' }] }, longRunningToolIds: ['c'], partial: false, turnComplete: true, finishReason: { unified: 'stop' },
      usage: { inputTokens: 1 }, runUsage: { inputTokens: 1 }, errorCode: 'X', errorMessage: 'x', errorDetails: { n: 1 }, output: { ok: true }, customMetadata: { m: 1 },
    });
    expect(Object.keys(every.toJSON())).toEqual(order);
    expect(Event.fromJSON(JSON.parse(JSON.stringify(every))).toJSON()).toEqual(every.toJSON());
    // Set by hand after creation, the rarer fields last and in another order: the same JSON.
    const late = Event.create({ id: every.id, invocationId: 'i', author: 'a', branch: 'a', content: every.content, timestamp: every.timestamp });
    Object.assign(late, { customMetadata: { m: 1 }, output: { ok: true }, errorMessage: 'x', errorDetails: { n: 1 }, errorCode: 'X', runUsage: { inputTokens: 1 }, usage: { inputTokens: 1 } });
    Object.assign(late, { finishReason: { unified: 'stop' }, turnComplete: true, partial: false, longRunningToolIds: ['c'] });
    expect(JSON.stringify(late)).toBe(JSON.stringify(every));
    expect(Object.keys(Event.create({ invocationId: 'i', author: 'a' }).toJSON())).toEqual(['id', 'invocationId', 'author', 'actions', 'timestamp']);
  });

  it('lists its calls and responses in order, in a new array each time, with none, one or several', () => {
    const calls = [1, 2, 3].map((n) => ({ id: `c${n}`, name: 't', args: { n } }));
    const responses = [1, 2, 3].map((n) => ({ id: `c${n}`, name: 't', response: { n } }));
    for (let count = 0; count <= 3; count++) {
      const model = Event.create({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ text: 'x' }, ...calls.slice(0, count).flatMap((functionCall) => [{ functionCall }, { text: 'y' }])] } });
      const answer = Event.create({ invocationId: 'i', author: 'a', content: { role: 'user', parts: responses.slice(0, count).map((functionResponse) => ({ functionResponse })) } });
      expect(model.functionCalls()).toEqual(calls.slice(0, count));
      expect(answer.functionResponses()).toEqual(responses.slice(0, count));
      const mine = model.functionCalls();
      mine.push(calls[0]);
      expect(model.functionCalls()).toHaveLength(count);
      expect(model.functionCalls()).not.toBe(model.functionCalls());
      expect(answer.functionCalls()).toEqual([]);
      expect(model.functionResponses()).toEqual([]);
    }
    expect(Event.create({ invocationId: 'i', author: 'a' }).functionCalls()).toEqual([]);
  });
});
