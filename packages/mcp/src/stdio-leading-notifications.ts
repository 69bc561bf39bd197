import { type Readable, Transform } from 'node:stream';

/**
 * Passes `input` (newline-delimited JSON-RPC over stdio) through, except the notifications that come
 * before the first other message, which are dropped. The SDK's `serveStdio` picks the protocol era from
 * the first message it reads (`initialize`: 2025-11-25, anything else: 2026-07-28), and a notification
 * before any request answers nothing and refers to nothing, so it must not pick the era: the first
 * request does. Lines that are not a JSON object with a `method` and no `id` (a request, a response,
 * garbage) end the filtering and go through, so the SDK answers them as it would.
 */
export function dropLeadingNotifications(input: Readable): Readable {
  let pending = '';
  let passing = false;
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (passing) return done(null, chunk);
      pending += chunk.toString('utf8');
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline + 1);
        if (!isNotification(line)) {
          passing = true;
          const rest = pending;
          pending = '';
          return done(null, Buffer.from(rest, 'utf8'));
        }
        pending = pending.slice(newline + 1);
      }
      done();
    },
    flush(done) {
      done(null, pending === '' ? undefined : Buffer.from(pending, 'utf8'));
    },
  });
  return input.pipe(filter);
}

function isNotification(line: string): boolean {
  if (line.trim() === '') return true; // blank lines carry nothing either
  try {
    const message = JSON.parse(line) as unknown;
    return typeof message === 'object' && message !== null && !Array.isArray(message) && typeof (message as { method?: unknown }).method === 'string' && !('id' in message);
  } catch {
    return false;
  }
}
