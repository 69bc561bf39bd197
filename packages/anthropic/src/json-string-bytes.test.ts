import { jsonStringBytes } from './json-string-bytes';

const stringified = (text: string): number => Buffer.byteLength(JSON.stringify(text)) - 2;

describe('jsonStringBytes', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'hello, world'],
    ['quotes and backslashes', '"a\\b" \\\\ ""'],
    ['every control character', Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join('')],
    ['DEL (not escaped)', '\u007f'],
    ['two- and three-byte characters', 'é ß ñ 日本語 €'],
    ['U+2028 and U+2029 (not escaped by JSON.stringify)', 'a\u2028b\u2029c'],
    ['astral characters (surrogate pairs)', '😀 𝄞 🏳️‍🌈'],
    ['a lone high surrogate', 'a\ud83d b'],
    ['a lone low surrogate', 'a\ude00 b'],
    ['a lone high surrogate at the end', 'ab\ud83d'],
    ['two high surrogates then a low one', '\ud83d\ud83d\ude00'],
    ['a low surrogate before a high one', '\ude00\ud83d'],
  ])('counts %s as JSON.stringify writes it', (_name, text) => {
    expect(jsonStringBytes(text)).toBe(stringified(text));
  });

  it('counts every UTF-16 code unit as JSON.stringify writes it, alone and before a low surrogate', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, `${char}\ude00`, `x${char}"`]) expect({ code, bytes: jsonStringBytes(text) }).toEqual({ code, bytes: stringified(text) });
    }
  });
});
