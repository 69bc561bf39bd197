import { randomUUID } from 'node:crypto';

// Ids only need to be unique, not secret: a random per-process prefix plus a counter is unique across
// processes and costs far less per event than a fresh UUID.
const PREFIX = randomUUID().replace(/-/g, '').slice(0, 16);
let counter = 0;

/** A new unique id, e.g. `e-3f2a…-1k`. */
export function newId(kind: string): string {
  return `${kind}-${PREFIX}-${(counter++).toString(36)}`;
}
