import { join } from 'node:path';
import type { DevServer } from '@toolsmith/devtools';
import { parseApiArgs, runApiCommand } from './api-command';

const deskAgent = join(__dirname, '..', '..', '..', 'devtools', 'src', '__fixtures__', 'desk-agent.ts');

// A bound, not a wait: the first test loads and scans the agent module, slow when the whole suite shares the machine.
jest.setTimeout(60_000);

describe('toolsmith api', () => {
  it('serves the API without the page until stopped', async () => {
    let out = '';
    const stop = new AbortController();
    let listening!: (server: DevServer) => void;
    const started = new Promise<DevServer>((resolve) => (listening = resolve));
    const done = runApiCommand(
      parseApiArgs([deskAgent, '--port', '0', '--memory']),
      { stdout: { write: (text: string) => (out += text) }, stderr: { write: () => undefined }, cwd: __dirname },
      { signal: stop.signal, onListening: listening },
    );
    const server = await started;
    expect(out).toContain(`Toolsmith dev API for desk_agent`);
    expect(out).toContain(`${server.url}/api/\n  token: ${server.token}\n  (send it on every request as "Authorization: Bearer <token>")`);

    // The printed token is what the API takes: without it nothing is answered.
    const authorization = `Bearer ${/token: (\S+)/.exec(out)![1]}`;
    expect((await fetch(`${server.url}/api/tools`)).status).toBe(401);
    const created = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'x' }) });
    expect(created.status).toBe(201);
    expect(((await (await fetch(`${server.url}/api/tools`, { headers: { authorization } })).json()) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['lookupOrder', 'refund', 'slowReport', 'startExport', 'cancelOrder']);
    const page = await fetch(server.url);
    expect(page.status).toBe(404);
    expect(await page.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Nothing at /: this server has only the API under /api/.' } });

    stop.abort();
    expect(await done).toBe(0);
  });
});
