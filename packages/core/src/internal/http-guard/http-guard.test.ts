import { type IncomingMessage, type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpGuard, decodePathSegment, requestPath } from './http-guard';
import { HttpGuardError } from './http-guard-error';
import { defaultAllowedHosts } from './allowed-hosts';
import { hasBearerToken, newLaunchToken } from './launch-token';
import { setSecurityHeaders } from './security-headers';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { caller?: unknown; body?: unknown; segment?: string; error?: { code: string; message: string } };
}

/** A raw request: fetch cannot set Host, and it adds an Origin of its own in some runtimes. */
function send(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/things/a', headers: options.headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) as Answer['body'] }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    request.end(options.body);
  });
}

/** A server whose only handler runs every check of the guard, as the dev server and serveMcp do. */
async function guardedServer(guard: HttpGuard<string>): Promise<{ port: number; server: Server }> {
  const server = createServer((request: IncomingMessage, response) => {
    setSecurityHeaders(response);
    const handle = async () => {
      const path = requestPath(request);
      const caller = await guard.admit(request);
      guard.checkMethod(request, ['GET', 'POST'], path);
      const segment = decodePathSegment(path.split('/')[2] ?? '');
      const body = request.method === 'POST' ? await guard.readJsonBody(request) : undefined;
      return { caller, body, segment };
    };
    handle().then(
      (result) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
      (error: unknown) => {
        if (!(error instanceof HttpGuardError)) throw error;
        response.writeHead(error.status, { 'content-type': 'application/json', ...error.headers }).end(JSON.stringify({ error: { code: error.code, message: error.message } }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  guard.allowHosts(defaultAllowedHosts('127.0.0.1', port));
  return { port, server };
}

describe('HttpGuard: the checks every Toolsmith HTTP server runs first', () => {
  const token = newLaunchToken();
  let port: number;
  let server: Server;
  const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}`, host: `127.0.0.1:${port}`, ...extra });

  beforeAll(async () => {
    ({ port, server } = await guardedServer(
      new HttpGuard<string>({ maxBodyBytes: 1024, authenticate: (request) => (hasBearerToken(request, token) ? 'launch' : undefined), unauthorizedHint: 'send the launch token.' }),
    ));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('admits a JSON request with the token, from the loopback names with the port', async () => {
    // Host names are case-insensitive.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`, `LocalHost:${port}`]) {
      const answer = await send(port, { headers: json({ host }), body: '{"a":1}' });
      expect(answer).toMatchObject({ status: 200, body: { caller: 'launch', body: { a: 1 }, segment: 'a' } });
    }
  });

  it('refuses a Host that is not a loopback name (DNS rebinding): 403 HOST_NOT_ALLOWED', async () => {
    for (const host of [`rebind.example:${port}`, 'rebind.example', `127.0.0.1.nip.io:${port}`]) {
      const answer = await send(port, { headers: json({ host }), body: '{}' });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toEqual({ code: 'HOST_NOT_ALLOWED', message: expect.stringContaining(JSON.stringify(host)) });
    }
  });

  it('refuses an Origin other than its own: 403 ORIGIN_NOT_ALLOWED (null included); its own origin passes', async () => {
    for (const origin of ['http://127.0.0.1:1', 'https://evil.example', 'null', `http://localhost:${port}`]) {
      const answer = await send(port, { headers: json({ origin }), body: '{}' });
      expect(answer.status).toBe(403);
      expect(answer.body.error?.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    expect((await send(port, { headers: json({ origin: `http://127.0.0.1:${port}` }), body: '{}' })).status).toBe(200);
  });

  it('refuses a request without the token, or with a wrong one: 401 UNAUTHORIZED with WWW-Authenticate', async () => {
    for (const authorization of [undefined, `Bearer ${token}x`, `Basic ${token}`, token]) {
      const headers = json();
      if (authorization === undefined) delete (headers as Record<string, string>).authorization;
      else headers.authorization = authorization;
      const answer = await send(port, { headers, body: '{}' });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized: send the launch token.' });
    }
  });

  it('refuses a body that is not application/json before reading it: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const answer = await send(port, { headers: json({ 'content-type': type }), body: '{"args":{}}' });
      expect(answer.status).toBe(415);
      expect(answer.body.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const untyped = json();
    delete (untyped as Record<string, string>)['content-type'];
    expect((await send(port, { headers: untyped, body: '{}' })).status).toBe(415);
    expect((await send(port, { headers: json({ 'content-type': 'Application/JSON; charset=utf-8' }), body: '{}' })).status).toBe(200);
  });

  it('refuses a body over the limit: 413 BODY_TOO_LARGE, from Content-Length or while streaming', async () => {
    const declared = await send(port, { headers: json(), body: JSON.stringify({ pad: 'x'.repeat(2000) }) });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect(declared.body.error).toEqual({ code: 'BODY_TOO_LARGE', message: 'The request body is larger than 1024 bytes.' });
    const streamed = await send(port, { headers: json({ 'transfer-encoding': 'chunked' }), body: Buffer.alloc(4096, ' ') });
    expect(streamed.status).toBe(413);
  });

  it('refuses a body that is not JSON: 400 MALFORMED_JSON', async () => {
    const answer = await send(port, { headers: json(), body: '{"a":' });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe('MALFORMED_JSON');
  });

  it('answers a method the path does not take with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const answer = await send(port, { method: 'PUT', headers: json(), body: '{}' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST');
    expect(answer.body.error?.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers malformed percent-encoding in the path with 400 MALFORMED_URL, not a crash', async () => {
    const answer = await send(port, { method: 'GET', path: '/things/%E0%A4%A', headers: json() });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe('MALFORMED_URL');
    expect((await send(port, { method: 'GET', path: '/things/caf%C3%A9', headers: json() })).body.segment).toBe('café');
  });

  it('sends the framing and sniffing headers on every answer, refusals included', async () => {
    for (const answer of [await send(port, { headers: json(), body: '{}' }), await send(port, { headers: json({ host: 'evil.example' }), body: '{}' })]) {
      expect(answer.headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('without an authentication hook, every caller is the anonymous one; a hook that throws refuses with 401', async () => {
    const open = await guardedServer(new HttpGuard<string>({ maxBodyBytes: 1024, anonymous: 'anyone' }));
    const throwing = await guardedServer(new HttpGuard<string>({ maxBodyBytes: 1024, authenticate: () => { throw new Error('boom'); } }));
    try {
      expect((await send(open.port, { headers: { 'content-type': 'application/json', host: `localhost:${open.port}` }, body: '{}' })).body.caller).toBe('anyone');
      const refused = await send(throwing.port, { headers: { 'content-type': 'application/json', host: `localhost:${throwing.port}` }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(refused.body.error?.message).toBe('Unauthorized: this server requires credentials.');
    } finally {
      open.server.close();
      throwing.server.close();
    }
  });
});

describe('defaultAllowedHosts', () => {
  it('lists the loopback names for a loopback bind, the address for another, nothing for a wildcard', () => {
    expect(defaultAllowedHosts('127.0.0.1', 4100)).toEqual(['127.0.0.1', '127.0.0.1:4100', 'localhost', 'localhost:4100', '[::1]', '[::1]:4100']);
    expect(defaultAllowedHosts('::1', 80)).toContain('localhost:80');
    expect(defaultAllowedHosts('10.0.0.5', 80)).toEqual(['10.0.0.5', '10.0.0.5:80']);
    expect(defaultAllowedHosts('fe80::1', 80)).toEqual(['[fe80::1]', '[fe80::1]:80']);
    expect(defaultAllowedHosts('0.0.0.0', 80)).toBeUndefined();
    expect(defaultAllowedHosts('::', 80)).toBeUndefined();
  });
});

describe('newLaunchToken', () => {
  it('is 32 random bytes in base64url, new each time', () => {
    const a = newLaunchToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newLaunchToken()).not.toBe(a);
  });
});
