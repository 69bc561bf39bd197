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
    expect(out).toContain(`${server.url}/api/`);

    const created = await fetch(`${server.url}/api/sessions`, { method: 'POST', body: JSON.stringify({ sessionId: 'x' }) });
    expect(created.status).toBe(201);
    expect(((await (await fetch(`${server.url}/api/tools`)).json()) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['lookupOrder', 'refund', 'slowReport', 'startExport']);
    const page = await fetch(server.url);
    expect(page.status).toBe(404);
    expect(await page.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Nothing at /: this server has only the API under /api/.' } });

    stop.abort();
    expect(await done).toBe(0);
  });
});
