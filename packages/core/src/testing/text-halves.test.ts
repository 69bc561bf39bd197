import { halves } from './text-halves';

describe('halves', () => {
  it('splits text into two non-empty pieces that join back to it', () => {
    expect(halves('hello')).toEqual(['he', 'llo']);
    expect(halves('ab')).toEqual(['a', 'b']);
  });

  it('keeps text shorter than two characters whole', () => {
    expect(halves('a')).toEqual(['a']);
    expect(halves('')).toEqual(['']);
  });
});
