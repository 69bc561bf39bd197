import { type Readable, Transform } from 'node:stream';

/**
 * Passes `input` through, ending the process when one line (one JSON-RPC message over stdio) grows
 * past `maxBytes`: the SDK's stdio transport buffers until a newline, so without this a client could
 * make the server hold any amount of memory. The process writes why to stderr and exits with status 1,
 * so the client sees a crash, never a clean exit.
 */
export function guardLineLength(input: Readable, maxBytes: number, onOverflow: (message: string) => void): Readable {
  let lineBytes = 0;
  let overflowed = false;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (overflowed) return done();
      const lastNewline = chunk.lastIndexOf(10);
      lineBytes = lastNewline >= 0 ? chunk.length - lastNewline - 1 : lineBytes + chunk.length;
      // A chunk may hold several lines; any one of them before the last newline may be too long too.
      if (lineBytes > maxBytes || (lastNewline >= 0 && longestLine(chunk, lastNewline) > maxBytes)) {
        overflowed = true;
        onOverflow(`toolsmith mcp: a message of more than ${maxBytes} bytes arrived on stdin (the limit is maxMessageBytes); stopping.`);
        return done();
      }
      done(null, chunk);
    },
  });
  return input.pipe(guard);
}

/** Length of the longest complete line in `chunk[0..lastNewline]` (the first one may continue an earlier chunk; the caller counted that). */
function longestLine(chunk: Buffer, lastNewline: number): number {
  let longest = 0;
  let start = 0;
  for (let index = chunk.indexOf(10); index >= 0 && index <= lastNewline; index = chunk.indexOf(10, index + 1)) {
    longest = Math.max(longest, index - start);
    start = index + 1;
  }
  return longest;
}

/** What stdio servers do on overflow: say why, and exit non-zero. */
export function exitOnOverflow(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
