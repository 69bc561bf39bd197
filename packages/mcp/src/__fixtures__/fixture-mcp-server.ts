import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** The base64 files the `snapshot` tool returns (the first bytes of a PNG, a WAV and a PDF). */
export const SNAPSHOT = {
  png: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64'),
  wav: Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1').toString('base64'),
  pdf: Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1').toString('base64'),
};

/**
 * A plain MCP server built with the SDK's own `McpServer` (no Toolsmith), used to test `McpToolset`
 * over stdio (see `stdio-fixture-server.ts`) and over HTTP (in-process).
 */
export function createFixtureMcpServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });

  server.registerTool(
    'echo',
    { description: 'Echoes the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );

  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool('fail', { description: 'Always reports a failure.' }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'kaboom' }],
  }));

  server.registerTool('hang', { description: 'Never answers.' }, () => new Promise<never>(() => undefined));

  server.registerTool('crash', { description: 'Kills the server process.' }, async () => {
    setImmediate(() => process.exit(1));
    return new Promise<never>(() => undefined);
  });

  server.registerTool('whoami', { description: 'Reports the Authorization header and process id.', inputSchema: {} }, async (_args, extra) => ({
    content: [],
    structuredContent: {
      authorization: extra.http?.req?.headers.get('authorization') ?? '',
      pid: process.pid,
      session: extra.sessionId ?? null,
    },
  }));

  server.registerTool('snapshot', { description: 'Returns a chart, a sound, a report and a note.' }, async () => ({
    content: [
      { type: 'text', text: 'Q3 snapshot' },
      { type: 'image', mimeType: 'image/png', data: SNAPSHOT.png },
      { type: 'audio', mimeType: 'audio/wav', data: SNAPSHOT.wav },
      { type: 'resource', resource: { uri: 'reports://q3/summary.pdf', mimeType: 'application/pdf', blob: SNAPSHOT.pdf } },
      { type: 'resource', resource: { uri: 'notes://q3', mimeType: 'text/plain', text: 'sales up' } },
    ],
  }));

  // A JPEG photo labelled image/png (uploaded as photo.png): a provider refuses it on every turn it is sent.
  server.registerTool('mislabeled_photo', { description: 'Returns a JPEG photo labelled image/png.' }, async () => ({
    content: [{ type: 'image', mimeType: 'image/png', data: Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex').toString('base64') }],
  }));

  server.registerTool(
    'big_image',
    { description: 'Returns a PNG of the given size and a PDF behind a signed URL.', inputSchema: { mebibytes: z.number() } },
    async ({ mebibytes }) => ({
      content: [
        // A PNG's first bytes, then filler: a file declared image/png must start as PNGs do.
        { type: 'image', mimeType: 'image/png', data: Buffer.concat([Buffer.from(SNAPSHOT.png, 'base64'), Buffer.alloc(mebibytes * 1024 * 1024 - 16, 7)]).toString('base64') },
        { type: 'resource', resource: { uri: 'https://bucket.example/q3/report%20v2.pdf?X-Amz-Signature=deadbeef#page=2', mimeType: 'application/pdf', blob: SNAPSHOT.pdf } },
      ],
    }),
  );

  let grown = false;
  server.registerTool('grow', { description: 'Adds a tool named "late" to this server.' }, async () => {
    if (!grown) {
      grown = true;
      server.registerTool('late', { description: 'Added at run time.' }, async () => ({
        content: [{ type: 'text', text: 'late tool ran' }],
      }));
    }
    return { content: [{ type: 'text', text: 'grown' }] };
  });

  return server;
}
