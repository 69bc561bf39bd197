import { startStreamableHttpEndpoint } from './streamable-http-endpoint';
import { createFixtureMcpServer } from './__fixtures__/fixture-mcp-server';

describe('startStreamableHttpEndpoint', () => {
  it('answers only on its path, and only an initialize request may start a session', async () => {
    const endpoint = await startStreamableHttpEndpoint({
      port: 0,
      path: '/tools',
      connectSession: (transport) => createFixtureMcpServer().connect(transport),
    });
    try {
      expect(endpoint.url.pathname).toBe('/tools');
      const post = (url: URL | string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      expect((await post(new URL('/elsewhere', endpoint.url), {})).status).toBe(404);
      expect((await post(endpoint.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(400);
      expect((await fetch(endpoint.url)).status).toBe(400);
      const unknownSession = await post(endpoint.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'nope' });
      expect(unknownSession.status).toBe(404);
    } finally {
      await endpoint.close();
    }
  });
});
