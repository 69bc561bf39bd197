import { parseSseFixture, startWireServer } from './wire-server';

describe('startWireServer', () => {
  it('records requests and answers JSON', async () => {
    const server = await startWireServer((req) => ({ json: { echo: req.body } }));
    try {
      const res = await fetch(`${server.url}/v1/x`, { method: 'POST', body: JSON.stringify({ a: 1 }) });
      expect(await res.json()).toEqual({ echo: { a: 1 } });
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/x', body: { a: 1 } });
    } finally {
      await server.close();
    }
  });

  it('streams SSE and can cut the connection mid-stream', async () => {
    const server = await startWireServer(() => ({ sse: [{ data: { n: 1 } }, { event: 'e', data: 'two' }, { data: 'x' }], cutAfter: 2 }));
    try {
      await expect(fetch(server.url).then((res) => res.text())).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('records handler assertion failures and answers 500', async () => {
    const server = await startWireServer(() => {
      throw new Error('bad request shape');
    });
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(500);
      expect(server.handlerErrors).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('parses SSE fixtures', () => {
    expect(parseSseFixture('event: a\ndata: {"x":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: 'a', data: '{"x":1}' },
      { data: '[DONE]' },
    ]);
  });
});
