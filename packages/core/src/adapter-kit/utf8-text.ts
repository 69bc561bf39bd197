const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of base64 `data` when its bytes are UTF-8 text: valid UTF-8 (a leading byte order mark left out)
 * with no NUL. `undefined` for anything else: Latin-1, binary, UTF-16 (whose ASCII letters are valid UTF-8,
 * a NUL after each). For adapters whose provider reads a text file as UTF-8: a file that is not would reach the
 * model corrupted, or be refused.
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
