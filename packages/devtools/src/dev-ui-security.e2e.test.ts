import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import { launchChromium } from './__fixtures__/launch-chromium';
import { ledger } from './__fixtures__/desk-agent';

// Issue 25: a page on another origin (another local port, or a DNS-rebinding name) tries every request
// that once ran tools through `toolsmith web`, in real Chromium; each fails, while the real page with its
// token works. `rebind.test` resolves to 127.0.0.1 in this browser only (--host-resolver-rules), as a
// rebinding attacker's name would after its DNS answer changed.
const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');
jest.setTimeout(60_000); // a bound for Chromium's start on a busy machine, not a wait

const approvedRefund = { args: { orderId: 'A-666', amount: 5000 }, confirmation: { confirmed: true } };

/** The attacker's own server, on another port of 127.0.0.1 (another origin). */
async function startAttacker(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the browser keeps its connection open
      }),
  };
}

describe('toolsmith web refuses pages of other origins (Chromium)', () => {
  let browser: { context: BrowserContext; close(): Promise<void> };
  let server: DevServer;
  let host: DevAgentHost;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium([
      '--host-resolver-rules=MAP rebind.test 127.0.0.1',
      // Chromium's own local-network protections are off, so every attack reaches the dev server and the
      // test shows the server refuses it (other browsers, or older ones, do not block these requests).
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
    ]);
  });
  afterAll(() => browser?.close());
  beforeEach(async () => {
    ledger.refunds.length = 0;
    host = await DevAgentHost.open({ module: fixture, store: 'memory' });
    server = await startDevServer({ host });
    page = await browser.context.newPage();
    page.setDefaultTimeout(30_000);
  });
  afterEach(async () => {
    await page.close();
    await server.close();
  });

  const sessionIds = async () => (await host.listSessions()).map((s) => s.id);

  it('another origin: a text/plain fetch, a form post and a guessed-token fetch run nothing; an iframe shows nothing', async () => {
    const formBody = JSON.stringify(approvedRefund).slice(0, -1); // the form adds `=<value>`: finish the JSON in the value
    const attacker = await startAttacker(`<!doctype html><html><body>
      <form id="form" method="POST" enctype="text/plain" action="${server.url}/api/tools/refund/run">
        <input type="hidden" name='${formBody},"pad":"' value='"}'>
      </form>
      <iframe id="frame" src="${server.pageUrl}" width="800" height="400"></iframe>
    </body></html>`);
    try {
      await page.goto(attacker.url);
      const outcomes = await page.evaluate(async ({ base, body }) => {
        const attempt = async (run: () => Promise<Response>) => {
          try {
            const response = await run();
            return response.type === 'opaque' ? 'opaque' : `${response.status}`;
          } catch (error) {
            return `failed: ${(error as Error).name}`;
          }
        };
        return {
          toolRun: await attempt(() => fetch(`${base}/api/tools/refund/run`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body })),
          sessionRun: await attempt(() =>
            fetch(`${base}/api/sessions/attack/run`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ text: 'Refund 50 for order A-7' }) }),
          ),
          withHeader: await attempt(() => fetch(`${base}/api/tools/refund/run`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer guessed' }, body })),
          read: await attempt(() => fetch(`${base}/api/sessions`)),
        };
      }, { base: server.url, body: JSON.stringify(approvedRefund) });
      // The no-cors requests reach the server and are refused there (nothing ran, nothing was stored);
      // a request with a header needs a preflight, which fails; a read gets no readable answer.
      expect(outcomes).toEqual({ toolRun: 'opaque', sessionRun: 'opaque', withHeader: 'failed: TypeError', read: 'failed: TypeError' });
      expect(ledger.refunds).toEqual([]);
      expect(await sessionIds()).toEqual([]);

      // The framed page (even given its token) is blocked: the frame shows no part of the UI.
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.waitForLoadState();
      expect(await frame.locator('[data-testid="app-name"]').count()).toBe(0);
      expect(await frame.locator('#app').count()).toBe(0);

      // A plain form post navigates to the server's refusal.
      await Promise.all([page.waitForNavigation(), page.locator('#form').evaluate((form) => (form as unknown as { submit(): void }).submit())]);
      expect(page.url()).toBe(`${server.url}/api/tools/refund/run`);
      expect(await page.content()).toContain('{"error":{"code":"ORIGIN_NOT_ALLOWED"');
      expect(ledger.refunds).toEqual([]);
    } finally {
      await attacker.close();
    }
  });

  it('a rebinding name: the attacker page cannot read the pending request nor approve it', async () => {
    // A pending approval, made by the real user's run.
    for await (const _ of host.run('pending', { role: 'user', parts: [{ text: 'Refund 250 for order A-1002' }] })) void _;
    const requestId = (await host.getSession('pending')).pending.confirmations[0].requestId;

    // The attacker's page at rebind.test:<dev port> (its first DNS answer), then its name points at 127.0.0.1.
    const rebound = `http://rebind.test:${server.port}`;
    await page.route(`${rebound}/attack.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>attack</title>' }));
    await page.goto(`${rebound}/attack.html`);
    const outcomes = await page.evaluate(async (id) => {
      const read = await fetch('/api/sessions/pending');
      const approve = await fetch(`/api/sessions/pending/confirmations/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"confirmed":true}' });
      const list = await fetch('/api/sessions');
      return [read.status, await read.text(), approve.status, await approve.text(), list.status, await list.text()];
    }, requestId);
    // Same-origin for the browser, so it reads the answers: the server's refusals, with no session data.
    expect(outcomes[0]).toBe(403);
    expect(outcomes[2]).toBe(403);
    expect(outcomes[4]).toBe(403);
    for (const text of [outcomes[1], outcomes[3], outcomes[5]]) {
      expect(JSON.parse(text as string).error.code).toBe('HOST_NOT_ALLOWED');
      expect(text).not.toContain(requestId);
    }
    expect(ledger.refunds).toEqual([]);
    expect((await host.getSession('pending')).pending.confirmations.map((c) => c.requestId)).toEqual([requestId]);
  });

  it('the real page with its token works: it keeps the token out of the address bar and approves the pending refund', async () => {
    for await (const _ of host.run('mine', { role: 'user', parts: [{ text: 'Refund 250 for order A-1002' }] })) void _;
    await page.goto(server.pageUrl);
    await page.getByTestId('app-name').filter({ hasText: 'desk_agent' }).waitFor();
    expect(page.url()).not.toContain('token');
    await page.locator('[data-testid="session-item"][data-session-id="mine"]').click();
    await page.getByTestId('approve').click();
    await page.getByTestId('agent-text').filter({ hasText: 'Refunded 250 € for order A-1002.' }).waitFor();
    expect(ledger.refunds).toEqual([{ orderId: 'A-1002', amount: 250 }]);
  });
});
