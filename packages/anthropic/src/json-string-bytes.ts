/**
 * The UTF-8 bytes `text` takes as a JSON string's contents, as `JSON.stringify` writes it (its quotes not
 * counted), counted by scanning: nothing is built, so a 20 MB text of control characters costs no 120 MB string.
 * `JSON.stringify` escapes a quote and a backslash with a backslash (2 bytes), backspace, form feed, newline,
 * carriage return and tab as `\b` `\f` `\n` `\r` `\t` (2), any other character below U+0020 and a lone surrogate
 * as `\uXXXX` (6); the rest is UTF-8 (U+2028 and U+2029 included, unescaped: 3 bytes; a surrogate pair 4).
 */
export function jsonStringBytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += code >= 0x20 ? (code === 0x22 || code === 0x5c ? 2 : 1) : SHORT_ESCAPES.has(code) ? 2 : 6;
    else if (code < 0x800) bytes += 2;
    else if (code < 0xd800 || code > 0xdfff) bytes += 3;
    else if (code <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 6;
  }
  return bytes;
}

/** Control characters `JSON.stringify` writes as two characters: `\b`, `\t`, `\n`, `\f`, `\r`. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
