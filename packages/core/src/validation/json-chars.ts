/**
 * The characters a scalar takes in JSON text: a string with its two quotes (escapes not counted), a
 * number as JSON writes it, `true`, `false`, `null` (also what JSON writes for a non-finite number, and
 * what an `undefined` array item becomes).
 */
export function jsonScalarChars(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? (Number.isInteger(value) && Math.abs(value) < 1e15 ? integerChars(value) : String(value).length) : 4;
    case 'boolean':
      return value ? 4 : 5;
    default:
      return 4;
  }
}

/** Digits (and sign) of a safe integer, without building its text. */
function integerChars(value: number): number {
  let n = value < 0 ? -value : value;
  let chars = value < 0 ? 2 : 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    chars++;
  }
  return chars;
}
