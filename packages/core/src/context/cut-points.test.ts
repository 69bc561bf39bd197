import { Event, type EventInit } from '../events/event';
import type { Part } from '../model/content';
import { createEventActions } from '../state/event-actions';
import { cutKeepingTurns, cutPoints, startsTurn } from './cut-points';

// Hand-built histories: each case puts one call where a cut could separate it from its result.
const ev = (init: Omit<EventInit, 'invocationId'>) => Event.create({ invocationId: 'i', ...init });
const userText = (text: string) => ev({ author: 'user', content: { role: 'user', parts: [{ text }] } });
const modelText = (text: string) => ev({ author: 'a', content: { role: 'model', parts: [{ text }] } });
const call = (id: string, name = 'tool'): Part => ({ functionCall: { id, name, args: {} } });
const result = (id: string, name = 'tool', willContinue?: boolean): Part => ({ functionResponse: { id, name, response: { ok: true }, ...(willContinue ? { willContinue } : {}) } });
const modelCalls = (...ids: string[]) => ev({ author: 'a', content: { role: 'model', parts: ids.map((id) => call(id)) } });
const results = (author: string, ...ids: string[]) => ev({ author, content: { role: 'user', parts: ids.map((id) => result(id)) } });

/** A finished turn: the user's message, a call, its result, the answer. */
const turn = (n: number) => [userText(`q${n}`), modelCalls(`c${n}`), results('a', `c${n}`), modelText(`a${n}`)];

describe('cut points', () => {
  it('fall on the user messages that start turns, never on the first event', () => {
    const events = [...turn(1), ...turn(2), ...turn(3)];
    expect(cutPoints(events)).toEqual([4, 8]);
    expect(startsTurn(results('user', 'x'))).toBe(false); // an answer to a pending call continues a turn
  });

  it('never separate a call from its result, parallel calls answered in two events included', () => {
    // Turn 2's user message arrives between the parallel calls' two result events (a call answered late).
    const events = [...turn(1), userText('q2'), modelCalls('p1', 'p2'), results('a', 'p1'), userText('q3'), results('a', 'p2'), modelText('done'), userText('q4')];
    expect(cutPoints(events)).toEqual([4, 10]);
  });

  it('never land inside a pending confirmation: the call, the request and everything after it stay', () => {
    const actions = createEventActions();
    actions.requestedToolConfirmations = { gated: { confirmed: false, hint: 'ok?' } };
    const request = ev({
      author: 'a',
      content: { role: 'model', parts: [{ functionCall: { id: 'req', name: 'toolsmith_request_confirmation', args: { originalFunctionCall: { id: 'gated', name: 'refund', args: {} }, toolConfirmation: { hint: 'ok?' } } } }] },
      actions,
      longRunningToolIds: ['req'],
    });
    const paused = [...turn(1), userText('refund'), ev({ author: 'a', content: { role: 'model', parts: [call('gated', 'refund')] } }), request];
    const movedOn = [...paused, modelText('waiting'), ...turn(3), ...turn(4)];
    expect(cutPoints(movedOn)).toEqual([4]);
    // Answered: the confirmation and the gated call's result are settled, later cuts are allowed again.
    const answer = ev({ author: 'user', content: { role: 'user', parts: [{ functionResponse: { id: 'req', name: 'toolsmith_request_confirmation', response: { confirmed: true } } }] } });
    const settled = [...movedOn, answer, results('a', 'gated'), modelText('refunded'), ...turn(5)];
    expect(cutPoints(settled)).toEqual([4, settled.length - 4]);
  });

  it('never land after a long-running call still waiting for its final response', () => {
    const started = ev({ author: 'a', content: { role: 'user', parts: [result('lr', 'export')] }, longRunningToolIds: ['lr'] });
    const running = [...turn(1), userText('export'), ev({ author: 'a', content: { role: 'model', parts: [call('lr', 'export')] } }), started, ...turn(3)];
    expect(cutPoints(running)).toEqual([4]);
    const progress = ev({ author: 'user', content: { role: 'user', parts: [result('lr', 'export', true)] } });
    expect(cutPoints([...running, progress, ...turn(4)])).toEqual([4]);
    const done = ev({ author: 'user', content: { role: 'user', parts: [result('lr', 'export')] } });
    const finished = [...running, progress, done, modelText('exported'), ...turn(5)];
    expect(cutPoints(finished)).toEqual([4, finished.length - 4]);
  });

  it('never land after an unanswered call of the last model step', () => {
    const events = [...turn(1), userText('q2'), modelCalls('open')];
    expect(cutPoints(events)).toEqual([4]);
    expect(cutPoints([...turn(1), ...turn(2), userText('q3'), modelCalls('open'), userText('q4')])).toEqual([4, 8]);
  });

  it('an orphaned call (never answered, the conversation moved on) does not hold later cuts back', () => {
    const events = [...turn(1), userText('q2'), modelCalls('orphan'), modelText('moved on'), ...turn(3), ...turn(4)];
    expect(cutPoints(events)).toEqual([4, 7, 11]);
    expect(cutKeepingTurns(events, 1)).toBe(11);
  });

  it('cutKeepingTurns keeps at least the last keepTurns turns, moving earlier when it must, and only past an earlier cut', () => {
    const events = [...turn(1), ...turn(2), ...turn(3)];
    expect(cutKeepingTurns(events, 1)).toBe(8);
    expect(cutKeepingTurns(events, 2)).toBe(4);
    expect(cutKeepingTurns(events, 3)).toBeUndefined(); // nothing before the first turn to leave out
    expect(cutKeepingTurns(events, 2, 4)).toBeUndefined(); // nothing new past the earlier cut
    const held = [...turn(1), userText('q2'), modelCalls('p1', 'p2'), results('a', 'p1'), userText('q3'), results('a', 'p2'), modelText('done')];
    expect(cutKeepingTurns(held, 1)).toBe(4); // q3's start would split p2 from its result: the cut moves back to q2
  });
});
