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

  it('replaces call ids the provider refuses, in the call and its response alike, without changing the contents given', () => {
    const long = `toolsmith_gemini_${'a'.repeat(32)}`;
    const contents: Content[] = [
      { role: 'model', parts: [{ text: 'calling' }, call(long), call('short'), call('functions.get_weather:0')] },
      { role: 'user', parts: [answer('functions.get_weather:0'), answer(long)] },
    ];
    const copy = JSON.parse(JSON.stringify(contents)) as Content[];
    const out = pairToolResults(contents, { maxLength: 40, pattern: /^[a-zA-Z0-9_-]+$/ });
    const ids = out[0].parts.flatMap((part) => (part.functionCall ? [part.functionCall.id] : []));
    expect(ids[1]).toBe('short');
    for (const id of [ids[0], ids[2]]) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(out[1].parts.map((part) => part.functionResponse!.id)).toEqual(ids); // a missing answer (short) too
    expect(out[1].parts[1].functionResponse!.response).toEqual({ error: expect.objectContaining({ code: 'MISSING_RESULT' }) });
    expect(pairToolResults(contents, { maxLength: 40, pattern: /^[a-zA-Z0-9_-]+$/ })).toEqual(out); // stable
    expect(contents).toEqual(copy);
    expect(pairToolResults(contents)[0]).toBe(contents[0]); // no rule: as given
  });
});

