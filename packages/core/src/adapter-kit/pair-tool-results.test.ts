import type { Content } from '../model/content';
import { pairToolResults } from './pair-tool-results';

const call = (id: string, name = 'f') => ({ functionCall: { id, name, args: {} } });
const answer = (id: string, response: Record<string, unknown> = { ok: id }, name = 'f') => ({
  functionResponse: { id, name, response },
});

describe('pairToolResults', () => {
  it('leaves a conversation without function calls unchanged', () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'hello' }] },
    ];
    expect(pairToolResults(contents)).toEqual(contents);
  });

  it('orders responses by call order and puts them before other user parts', () => {
    const out = pairToolResults([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ text: 'calling' }, call('a'), call('b')] },
      { role: 'user', parts: [{ text: 'also this' }, answer('b')] },
      { role: 'user', parts: [answer('a')] },
      { role: 'model', parts: [{ text: 'done' }] },
    ]);
    expect(out).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ text: 'calling' }, call('a'), call('b')] },
      { role: 'user', parts: [answer('a'), answer('b'), { text: 'also this' }] },
      { role: 'model', parts: [{ text: 'done' }] },
    ]);
  });

  it('keeps the last answer of a call answered twice in the same stretch', () => {
    const out = pairToolResults([
      { role: 'model', parts: [call('a')] },
      { role: 'user', parts: [answer('a', { status: 'pending' })] },
      { role: 'user', parts: [answer('a', { status: 'done' })] },
    ]);
    expect(out[1]).toEqual({ role: 'user', parts: [answer('a', { status: 'done' })] });
  });

  it('synthesizes an error response for an unanswered call', () => {
    const out = pairToolResults([{ role: 'model', parts: [call('a', 'lookup')] }, { role: 'user', parts: [{ text: 'never mind' }] }]);
    expect(out[1].parts[0].functionResponse).toMatchObject({ id: 'a', name: 'lookup', isError: true });
    expect(out[1].parts[0].functionResponse?.response).toMatchObject({ error: { code: 'MISSING_RESULT' } });
    expect(out[1].parts[1]).toEqual({ text: 'never mind' });
  });

  it('turns late and orphan answers into text', () => {
    const out = pairToolResults([
      { role: 'model', parts: [call('a', 'export')] },
      { role: 'user', parts: [answer('a', { status: 'pending' }, 'export')] },
      { role: 'model', parts: [{ text: 'started' }] },
      { role: 'user', parts: [answer('a', { status: 'done' }, 'export'), answer('zzz')] },
    ]);
    expect(out).toHaveLength(4);
    expect(out[3].parts).toEqual([
      { text: 'Result of the earlier call a to tool "export": {"status":"done"}' },
      { text: 'Result of the earlier call zzz to tool "f": {"ok":"zzz"}' },
    ]);
  });

  it('closes a stretch at the next model turn even when it also calls tools', () => {
    const out = pairToolResults([
      { role: 'model', parts: [call('a')] },
      { role: 'model', parts: [call('b')] },
      { role: 'user', parts: [answer('b')] },
    ]);
    expect(out.map((c) => c.role)).toEqual(['model', 'user', 'model', 'user']);
    expect(out[1].parts[0].functionResponse?.response).toMatchObject({ error: { code: 'MISSING_RESULT' } });
    expect(out[3].parts).toEqual([answer('b')]);
  });
});
