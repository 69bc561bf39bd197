import { Event, type EventInit } from '../events/event';
import type { Part } from '../model/content';
import { createEventActions } from '../state/event-actions';
import { findInterruptedCalls, interruptedCallEvents } from './interrupted-calls';

const model = (parts: Part[], extra: Partial<EventInit> = {}) =>
  Event.create({ invocationId: 'i', author: 'bot', content: { role: 'model', parts }, ...extra });
const responses = (author: string, ...ids: Array<[string, boolean?]>) =>
  Event.create({ invocationId: 'i', author, content: { role: 'user', parts: ids.map(([id, willContinue]) => ({ functionResponse: { id, name: 't', response: {}, ...(willContinue ? { willContinue } : {}) } })) } });
const userText = (text: string) => Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text }] } });
const call = (id: string, name = 't') => ({ functionCall: { id, name, args: {} } });

describe('findInterruptedCalls', () => {
  it('finds the calls of the current turn without a response, and answers them with TOOL_INTERRUPTED events', () => {
    const calls = model([call('a'), call('b')], { branch: 'root.bot' });
    const events = [userText('hi'), model([call('old')]), responses('bot', ['old']), model([{ text: 'done' }]), userText('again'), calls, responses('bot', ['a'])];

    expect(findInterruptedCalls(events).map((entry) => entry.call.id)).toEqual(['b']);
    const [answer] = interruptedCallEvents(events, 'inv-2');
    expect(answer).toMatchObject({ invocationId: 'inv-2', author: 'bot', branch: 'root.bot' });
    expect(answer.functionResponses()).toEqual([
      {
        id: 'b',
        name: 't',
        isError: true,
        // The call's name and id are the response's: its message does not name the tool, and it has no details.
        response: {
          error: {
            code: 'TOOL_INTERRUPTED',
            message: 'The call was interrupted before it answered (the process running it stopped). It may or may not have taken effect; it was not run again. Check its effect before calling it again.',
          },
        },
      },
    ]);
  });

  it('finds nothing in a finished conversation, or when every call was answered', () => {
    expect(findInterruptedCalls([])).toEqual([]);
    expect(findInterruptedCalls([userText('hi'), model([call('a')]), responses('bot', ['a']), model([{ text: 'ok' }])])).toEqual([]);
    expect(findInterruptedCalls([userText('hi'), model([call('a')]), responses('bot', ['a'])])).toEqual([]); // died in the model call: nothing to report
  });

  it('leaves out calls that legitimately wait: a pending confirmation and a long-running call', () => {
    const actions = { ...createEventActions(), requestedToolConfirmations: { gated: { confirmed: false, hint: 'ok?' } } };
    const request = model([{ functionCall: { id: 'confirm-1', name: 'toolsmith_request_confirmation', args: { originalFunctionCall: { id: 'gated', name: 't', args: {} }, toolConfirmation: { hint: 'ok?' } } } }], {
      actions,
      longRunningToolIds: ['confirm-1'],
    });
    const longRunning = Event.create({ invocationId: 'i', author: 'bot', content: { role: 'user', parts: [{ functionResponse: { id: 'job', name: 'export', response: { started: true } } }] }, longRunningToolIds: ['job'] });
    const events = [userText('go'), model([call('gated'), call('job', 'export')]), longRunning, request];
    expect(findInterruptedCalls(events)).toEqual([]);

    // Once the confirmation is answered, the gated call must answer; a process that died running it left it unanswered.
    const answered = Event.create({ invocationId: 'j', author: 'user', content: { role: 'user', parts: [{ functionResponse: { id: 'confirm-1', name: 'toolsmith_request_confirmation', response: { confirmed: true } } }] } });
    expect(findInterruptedCalls([...events, answered]).map((entry) => entry.call.id)).toEqual(['gated']);
    // An intermediate update keeps the long-running call pending.
    expect(findInterruptedCalls([...events, answered, responses('user', ['job', true])]).map((entry) => entry.call.id)).toEqual(['gated']);
  });
});
