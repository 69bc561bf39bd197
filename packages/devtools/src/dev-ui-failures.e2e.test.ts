import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DevAgentHost } from './dev-agent-host';
import type { DevServer } from './start-dev-server';
import { startDevServer } from './start-dev-server';
import { launchChromium } from './__fixtures__/launch-chromium';
import { resetSlowReport, slowReportAborted, slowReportStarted } from './__fixtures__/desk-agent';

// The page's failure states in Chromium: every failure is shown where it happened with the server's
// typed message, a run can be stopped, and long words wrap. No failure may escape as an unhandled error.
const fixture = join(__dirname, '__fixtures__', 'desk-agent.ts');
jest.setTimeout(60_000); // a bound for Chromium's start on a busy machine, not a wait

describe('the dev UI when things fail (Chromium)', () => {
  let browser: { context: BrowserContext; close(): Promise<void> };
  let server: DevServer;
  let host: DevAgentHost;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  beforeEach(async () => {
    resetSlowReport();
    host = await DevAgentHost.open({ module: fixture, store: 'memory' });
    server = await startDevServer({ host });
    page = await browser.context.newPage();
    page.setDefaultTimeout(30_000);
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message)); // uncaught errors and unhandled rejections
  });
  afterEach(async () => {
    await page.close();
    await server.close();
    expect(pageErrors).toEqual([]);
  });

  const openTool = async (name: string) => {
    await page.goto(server.pageUrl);
    await page.getByTestId('tab-tools').click();
    await page.getByTestId('tool-item').filter({ hasText: name }).click();
  };

  it('Run in the Tools tab while the server is down shows SERVER_UNREACHABLE', async () => {
    await openTool('lookupOrder');
    await page.getByTestId('tool-form').locator('input[name="orderId"]').fill('A-1');
    await server.close();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('tool-problem').filter({ hasText: 'SERVER_UNREACHABLE: The dev server cannot be reached' }).waitFor();
    await page.locator('[data-testid="run-tool"]:enabled').waitFor(); // ready to run again
  });

  it("shows the server's typed message: NOT_PENDING for an approval already given, UNAUTHORIZED for a wrong token", async () => {
    await page.goto(server.pageUrl);
    await page.getByTestId('chat-input').fill('Refund 250 for order A-1002');
    await page.getByTestId('send').click();
    await page.getByTestId('pending-confirmation').waitFor();
    // Someone else (another tab) answers first; this page's Approve is then refused by the server.
    const sessionId = (await host.listSessions())[0].id;
    const requestId = (await host.getSession(sessionId)).pending.confirmations[0].requestId;
    const answer = await host.confirmationAnswer(sessionId, requestId, { confirmed: false });
    for await (const _ of host.run(sessionId, answer)) void _;
    await page.getByTestId('approve').click();
    await page.getByTestId('problem').filter({ hasText: `NOT_PENDING: Session "${sessionId}" is not waiting for a confirmation "${requestId}".` }).waitFor();

    const other = await browser.context.newPage(); // a new tab: its own sessionStorage
    try {
      await other.goto(`${server.url}/#token=not-the-token`);
      await other.getByTestId('app-problem').filter({ hasText: 'UNAUTHORIZED: Unauthorized: send the launch token' }).waitFor();
      expect(await other.content()).not.toContain('Failed to fetch');
    } finally {
      await other.close();
    }
  });

  it('Stop ends a chat run: the request is aborted and the tool sees its signal abort', async () => {
    await page.goto(server.pageUrl);
    await page.getByTestId('chat-input').fill('Make a slow report');
    await page.getByTestId('send').click();
    await slowReportStarted;
    await page.getByTestId('stop').click();
    await expect(slowReportAborted).resolves.toBeDefined();
    await page.getByTestId('problem').filter({ hasText: 'STOPPED' }).waitFor();
    await page.getByTestId('send').waitFor(); // the box takes messages again
  });

  it('Stop ends a tool run in the Tools tab: the tool sees its signal abort', async () => {
    await openTool('slowReport');
    await page.getByTestId('run-tool').click();
    await slowReportStarted;
    await page.getByTestId('stop-tool').click();
    await expect(slowReportAborted).resolves.toBeDefined();
    await page.getByTestId('tool-problem').filter({ hasText: 'STOPPED' }).waitFor();
  });

  it('a long unbroken word wraps inside the conversation instead of widening the page', async () => {
    await page.goto(server.pageUrl);
    const word = 'x'.repeat(3000);
    await page.getByTestId('chat-input').fill(word);
    await page.getByTestId('send').click();
    const bubble = page.getByTestId('user-text').filter({ hasText: word });
    await bubble.waitFor();
    await page.getByTestId('running').waitFor({ state: 'detached' });
    // Measured in the page (a string: these tests compile without the DOM's types).
    const sizes = (await page.evaluate(`(() => {
      const conversation = document.querySelector('.conversation');
      const bubble = document.querySelector('[data-testid="user-text"]').getBoundingClientRect();
      return { bubble: bubble.width, conversation: conversation.clientWidth, scroll: conversation.scrollWidth, page: document.documentElement.scrollWidth, viewport: innerWidth };
    })()`)) as { bubble: number; conversation: number; scroll: number; page: number; viewport: number };
    expect(sizes.bubble).toBeLessThanOrEqual(sizes.conversation);
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.conversation);
    expect(sizes.page).toBeLessThanOrEqual(sizes.viewport);
  });
});
