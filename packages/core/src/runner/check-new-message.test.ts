import { copyNewMessage } from './check-new-message';

describe('copyNewMessage: an enumerable member of Object.prototype', () => {
  it('is never copied into a part, whether the part is strings alone or not', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.lent = 'x';
    try {
      for (const part of [{ text: 'hi' }, { text: 'hi', thought: true }]) {
        const copied = copyNewMessage({ role: 'user', parts: [part] });
        expect(Object.keys((copied as { parts: object[] }).parts[0])).toEqual(Object.keys(part));
      }
    } finally {
      delete prototype.lent;
    }
  });
});
