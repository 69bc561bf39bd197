/**
 * What makes a string unfit to be kept as an identifier (a message id, an artifact path segment): a
 * control character (PostgreSQL refuses NUL; others hide in logs and file names) or a lone surrogate
 * (not well-formed Unicode, so two ids could collapse into one replacement character once encoded).
 * `undefined` when the string has neither.
 */
export function unfitIdentifierCharacter(value: string): 'lone surrogate' | 'control character' | undefined {
  // With the `u` flag a surrogate pair is one code point, so only a lone surrogate matches the range.
  if (LONE_SURROGATE.test(value)) return 'lone surrogate';
  if (CONTROL_CHARACTER.test(value)) return 'control character';
  return undefined;
}

/** `value` with each lone surrogate replaced by U+FFFD, printable in an error message. */
export function withoutLoneSurrogates(value: string): string {
  return value.replace(LONE_SURROGATES, '\ufffd');
}

const LONE_SURROGATE = new RegExp('[\\ud800-\\udfff]', 'u');
const LONE_SURROGATES = new RegExp('[\\ud800-\\udfff]', 'gu');
/** C0, DEL and C1: Unicode's control characters (category Cc), as the ranges of a regular expression's class. */
export const CONTROL_CHARACTER_RANGES = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROL_CHARACTER = new RegExp(`[${CONTROL_CHARACTER_RANGES}]`);
