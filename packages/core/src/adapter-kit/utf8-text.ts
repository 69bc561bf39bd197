const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of base64 `data` when its bytes read as UTF-8 text: valid UTF-8 (a leading byte order mark left
 * out, so a file of only a BOM is `''`) with no NUL; else `undefined`. A check of the bytes, not of what the
 * sender meant: most Latin-1 and binary files fail it (their high bytes are not valid UTF-8), and so does UTF-16
 * of ASCII text (a NUL after each letter), but bytes that happen to be valid UTF-8 (UTF-16 of CJK text, Latin-1
 * `Ã©`) pass. For adapters whose provider reads a text file as UTF-8: a file that fails would reach the model
 * corrupted, or be refused.
 */
export function utf8Text(data: string): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(Buffer.from(data, 'base64'));
  } catch {
    // The decoder's TypeError is the answer (not UTF-8), not a failure.
    return undefined;
  }
  return text.includes('\0') ? undefined : text;
}
