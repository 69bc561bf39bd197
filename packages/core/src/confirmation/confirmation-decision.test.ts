import { readConfirmationDecision } from './confirmation-decision';

const read = (answer: unknown) => {
  const decision = readConfirmationDecision('r1', answer);
  return decision instanceof Error ? decision.message : decision;
};

describe('readConfirmationDecision: null fields, as JSON clients and pydantic dumps write absent ones', () => {
  const absent = { args: null, message: null, result: null, payload: undefined, remember: null, confirmed: null };

  it('reads null args, message, remember, confirmed and decision as absent, and result too beside any decision but respond', () => {
    expect(read({ ...absent, decision: 'approve' })).toEqual({ decision: 'approve' });
    expect(read({ ...absent, decision: 'reject', confirmed: false })).toEqual({ decision: 'reject' });
    expect(read({ ...absent, decision: 'edit', args: { amount: 1 } })).toEqual({ decision: 'edit', args: { amount: 1 } });
    expect(read({ ...absent, decision: 'reject', message: 'No.' })).toEqual({ decision: 'reject', message: 'No.' });
    expect(read({ ...absent, decision: null, confirmed: true })).toEqual({ decision: 'approve' });
    expect(read({ decision: 'approve', remember: { scope: 'user', expiresAt: null, condition: null } })).toEqual({ decision: 'approve', remember: { scope: 'user' } });
  });

  it('keeps a null that means something: the result of respond, and a payload', () => {
    expect(read({ ...absent, decision: 'respond' })).toEqual({ decision: 'respond', result: null });
    expect(read({ decision: 'approve', payload: null })).toEqual({ decision: 'approve', payload: null });
  });

  it('still refuses what null leaves missing: an edit without arguments, an answer without a decision', () => {
    expect(read({ ...absent, decision: 'edit' })).toContain('"args" (the edited arguments) must be a JSON object');
    expect(read({ decision: null, confirmed: null })).toContain('"confirmed" must be true or false, got nothing');
    expect(read({ decision: 'approve', remember: { scope: null } })).toContain('"remember.scope" must be "session", "user" or "app"');
  });
});
