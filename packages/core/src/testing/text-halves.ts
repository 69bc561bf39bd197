/**
 * Splits text into two non-empty pieces (text shorter than two characters stays whole), so a wire codec can
 * stream one text or JSON value as several deltas, as the adapter conformance kit asks.
 *
 * @example
 * halves('hello'); // ['he', 'llo']
 */
export function halves(text: string): string[] {
  const middle = Math.max(1, Math.floor(text.length / 2));
  return text.length < 2 ? [text] : [text.slice(0, middle), text.slice(middle)];
}
