/**
 * What makes a string unfit to be kept as an identifier (a message id, an artifact path segment): a
 * control character (PostgreSQL refuses NUL; others hide in logs and file names) or a lone surrogate
 * (not well-formed Unicode, so two ids could collapse into one replacement character once encoded).
 * `undefined` when the string has neither.
 */
export function unfitIdentifierCharacter(value: string): 'lone surrogate' | 'control character' | undefined {
  // One pass over the code units (every run checks its ids here: about half the time of two regular expressions).
  let found: 'lone surrogate' | 'control character' | undefined;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) found ??= 'control character';
    else if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++; // a pair: one code point
      else return 'lone surrogate'; // reported before a control character, wherever each is
    }
  }
  return found;
}

/** `value` with each lone surrogate replaced by U+FFFD, printable in an error message. */
export function withoutLoneSurrogates(value: string): string {
  return value.replace(LONE_SURROGATES, '\ufffd');
}

const LONE_SURROGATES = new RegExp('[\\ud800-\\udfff]', 'gu');
/** C0, DEL and C1: Unicode's control characters (category Cc), as the ranges of a regular expression's class. */
export const CONTROL_CHARACTER_RANGES = '\\u0000-\\u001f\\u007f-\\u009f';
