import { Event } from '../events/event';
import type { Content, FunctionResponse } from '../model/content';
import { checkFunctionResponses } from './check-function-responses';
import { findPendingCalls } from './pending-calls';
import { REQUEST_CONFIRMATION } from './request-confirmation';

const original = { id: 'call-1', name: 'refund', args: { amount: 250, order: { id: 'A-1', lines: [1, 2] } } };

/** A session paused on one confirmation request and one long-running call. */
const events = [
  Event.create({ invocationId: 'i1', author: 'user', content: { role: 'user', parts: [{ text: 'go' }] } }),
  Event.create({
    invocationId: 'i1',
    author: 'clerk',
    content: { role: 'model', parts: [{ functionCall: original }, { functionCall: { id: 'lr-1', name: 'startExport', args: {} } }] },
  }),
  Event.create({
    invocationId: 'i1',
    author: 'clerk',
    content: { role: 'user', parts: [{ functionResponse: { id: 'lr-1', name: 'startExport', response: { ticket: 'T' } } }] },
    longRunningToolIds: ['lr-1'],
  }),
  Event.create({
    invocationId: 'i1',
    author: 'clerk',
    content: { role: 'model', parts: [{ functionCall: { id: 'q-1', name: REQUEST_CONFIRMATION, args: { originalFunctionCall: original, toolConfirmation: { hint: 'ok?' } } } }] },
    // The runner's pause event: it alone records the gated call in its actions.
    actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { 'call-1': { confirmed: false, hint: 'ok?' } } },
    longRunningToolIds: ['q-1'],
  }),
];

const message = (...responses: FunctionResponse[]): Content => ({ role: 'user', parts: responses.map((functionResponse) => ({ functionResponse })) });
const answer = (response: Record<string, unknown>): FunctionResponse => ({ id: 'q-1', name: REQUEST_CONFIRMATION, response });

describe('findPendingCalls', () => {
  it('reads pending requests and long-running calls from the events alone', () => {
    const pending = findPendingCalls(events);
    expect([...pending.confirmations.values()]).toEqual([
      { requestId: 'q-1', originalFunctionCall: original, prompt: { hint: 'ok?' }, agentName: 'clerk', requestEventId: events[3].id },
    ]);
    expect([...pending.longRunning.values()]).toEqual([{ id: 'lr-1', name: 'startExport', agentName: 'clerk' }]);
  });

  it('keeps a long-running call pending through updates with willContinue, and settles it on the final one', () => {
    const update = (willContinue: boolean) =>
      Event.create({ invocationId: 'i2', author: 'user', content: message({ id: 'lr-1', name: 'startExport', response: {}, willContinue }) });
    expect(findPendingCalls([...events, update(true)]).longRunning.has('lr-1')).toBe(true);
    const settled = findPendingCalls([...events, update(true), update(false)]);
    expect(settled.longRunning.has('lr-1')).toBe(false);
    expect(settled.answered.has('lr-1')).toBe(true);
  });
});

describe('checkFunctionResponses', () => {
  it('lets through messages without function responses and valid answers', () => {
    expect(checkFunctionResponses(events, { role: 'user', parts: [{ text: 'hi' }] })).toBeUndefined();
    expect(checkFunctionResponses(events, message(answer({ confirmed: false })))).toBeUndefined();
    expect(checkFunctionResponses(events, message(answer({ confirmed: true }), { id: 'lr-1', name: 'startExport', response: { done: true } }))).toBeUndefined();
  });

  it('compares the echoed original call by value: key order and JSON text do not matter', () => {
    const reordered = { name: 'refund', args: { order: { lines: [1, 2], id: 'A-1' }, amount: 250 }, id: 'call-1' };
    expect(checkFunctionResponses(events, message(answer({ confirmed: true, originalFunctionCall: reordered })))).toBeUndefined();
    const asText = { ...original, args: JSON.stringify(original.args) };
    expect(checkFunctionResponses(events, message(answer({ confirmed: true, originalFunctionCall: asText })))).toBeUndefined();
  });

  it.each([
    ['array order', { ...original, args: { ...original.args, order: { id: 'A-1', lines: [2, 1] } } }],
    ['an extra argument', { ...original, args: { ...original.args, note: 'x' } }],
    ['a missing argument', { ...original, args: { amount: 250 } }],
    ['an array for an object', { ...original, args: { ...original.args, order: ['A-1'] } }],
    ['not a call at all', 'refund everything'],
  ])('refuses an echoed original call that differs by %s', (_label, claimed) => {
    expect(checkFunctionResponses(events, message(answer({ confirmed: true, originalFunctionCall: claimed })))?.code).toBe('CONFIRMATION_MISMATCH');
  });

  it('refuses the whole message when one of its responses is bad', () => {
    const error = checkFunctionResponses(events, message(answer({ confirmed: true }), { id: 'ghost', name: 'startExport', response: {} }));
    expect(error?.code).toBe('FUNCTION_RESPONSE_NOT_PENDING');
    expect(error?.details).toEqual({ functionCallId: 'ghost', reason: 'unknown' });
  });

  it("refuses what only the runner writes on a client's update or answer, naming each member, and takes what the docs let a client send", () => {
    const forged = { confirmation: { decision: 'approve', by: 'grant', grantId: 'g-1' }, innerCalls: [], isError: true, foo: 1 };
    const update = checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: { done: 1 }, ...forged } as FunctionResponse));
    expect(update?.code).toBe('INVALID_FUNCTION_RESPONSE');
    expect(update?.message).toBe(
      'The function response for "lr-1" was refused: it has members "confirmation", "innerCalls", "isError" and "foo", which a client\'s update does not carry (only "id", "name", "response", "willContinue", "question" and "parts").',
    );
    for (const key of ['policy', 'argumentRepairs']) {
      expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, [key]: {} } as FunctionResponse))?.message).toContain(`it has a member "${key}",`);
    }
    const confirmation = checkFunctionResponses(events, message({ ...answer({ confirmed: true }), confirmation: forged.confirmation, willContinue: true } as FunctionResponse));
    expect(confirmation?.code).toBe('INVALID_CONFIRMATION_ANSWER');
    expect(confirmation?.message).toContain('it has members "confirmation" and "willContinue", which an answer does not carry (only "id", "name" and "response")');
    // What the docs let a client send passes (a member left undefined is absent, as JSON leaves it out).
    const question = { hint: 'Keep?' };
    expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, willContinue: true, question, isError: undefined }))).toBeUndefined();
    expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, willContinue: false }))).toBeUndefined();
  });

  it('reads a null member as absent, as JSON clients write an absent field', () => {
    expect(checkFunctionResponses(events, message({ ...answer({ confirmed: true }), willContinue: null, isError: null } as unknown as FunctionResponse))).toBeUndefined();
    expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, willContinue: null, question: null, confirmation: null } as unknown as FunctionResponse))).toBeUndefined();
    expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, willContinue: true, question: null } as unknown as FunctionResponse))).toBeUndefined();
    // A question still needs willContinue: true, null or not.
    expect(checkFunctionResponses(events, message({ id: 'lr-1', name: 'startExport', response: {}, willContinue: null, question: { hint: 'Keep?' } } as unknown as FunctionResponse))?.message).toContain('a "question" needs "willContinue": true');
  });

  it('refuses extra members on a credential answer', () => {
    const credentialEvents = [
      ...events.slice(0, 2),
      Event.create({
        invocationId: 'i1',
        author: 'clerk',
        content: { role: 'model', parts: [{ functionCall: { id: 'cr-1', name: 'toolsmith_request_credential', args: { originalFunctionCall: original, authConfig: { type: 'apiKey' } } } }] },
        actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { 'call-1': { confirmed: false, auth: { authConfig: { type: 'apiKey' } } as never } } },
        longRunningToolIds: ['cr-1'],
      }),
    ];
    expect(findPendingCalls(credentialEvents).confirmations.get('cr-1')?.auth).toBeDefined();
    const refused = checkFunctionResponses(credentialEvents, message({ id: 'cr-1', name: 'toolsmith_request_credential', response: { apiKey: 'k' }, isError: false }));
    expect(refused?.code).toBe('INVALID_CREDENTIAL_ANSWER');
    expect(refused?.message).toContain('it has a member "isError", which an answer does not carry');
  });

  it('refuses malformed parts without throwing', () => {
    const odd = { role: 'user', parts: [{ functionResponse: null }] } as unknown as Content;
    expect(checkFunctionResponses(events, odd)?.code).toBe('INVALID_FUNCTION_RESPONSE');
    expect(checkFunctionResponses(events, message(answer(null as unknown as Record<string, unknown>)))?.code).toBe('INVALID_CONFIRMATION_ANSWER');
  });
});

describe('confirmationResponse', () => {
  const { confirmationResponse } = jest.requireActual<typeof import('./confirmation-response')>('./confirmation-response');
  const { confirmationRequests } = jest.requireActual<typeof import('./confirmation-requests')>('./confirmation-requests');

  it('accepts the request call, a listed request, or what findPendingCalls returns, and builds the same answer', () => {
    const [pending] = findPendingCalls(events).confirmations.values();
    const [listed] = confirmationRequests(events[3]);
    const fromCall = confirmationResponse(listed.call, { confirmed: true });
    expect(confirmationResponse(listed, { confirmed: true })).toEqual(fromCall);
    expect(confirmationResponse(pending, { confirmed: true })).toEqual(fromCall);
    expect(checkFunctionResponses(events, confirmationResponse(pending, { confirmed: true }))).toBeUndefined();
  });
});
