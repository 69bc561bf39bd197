import { randomUUID } from 'node:crypto';

// Ids only need to be unique, not secret: a random per-process prefix plus a counter is unique across
// processes and costs far less per event than a fresh UUID.
const PROCESS_PREFIX = randomUUID().replace(/-/g, '').slice(0, 16);
/** The base-36 digits, each a string made once. */
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'.split('');

/**
 * The id maker of one kind: each call returns a new unique id, `kind-<process prefix>-<counter>` with the
 * counter in base 36 (at least two digits), e.g. `e-3f2a…-1k`. The counter's string is built once per 36
 * ids and each id is that string plus a digit made once: no number is turned into a string per id (the
 * conversion cost more than the rest of the id, and a decimal one goes through V8's number-string cache,
 * which made the garbage collector's work grow).
 */
export function idSequence(kind: string): () => string {
  const base = `${kind}-${PROCESS_PREFIX}-`;
  let block = 0;
  let prefix = `${base}0`;
  let digit = 0;
  return () => {
    if (digit === DIGITS.length) {
      digit = 0;
      prefix = `${base}${(++block).toString(36)}`;
    }
    return prefix + DIGITS[digit++];
  };
}
