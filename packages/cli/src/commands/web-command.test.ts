import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevServer } from '@toolsmith/devtools';
import { main } from '../main';
import { DEFAULT_DEV_PORT, parseDevServerArgs, runWebCommand } from './web-command';

const deskAgent = join(__dirname, '..', '..', '..', 'devtools', 'src', '__fixtures__', 'desk-agent.ts');

function collector() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), text: () => text };
}

// A bound, not a wait: the first test loads and scans the agent module, slow when the whole suite shares the machine.
jest.setTimeout(60_000);

describe('toolsmith web', () => {
  it('parses its options: 127.0.0.1 and a fixed port by default', () => {
    expect(parseDevServerArgs(['agent.js'])).toEqual({ module: 'agent.js', port: DEFAULT_DEV_PORT, host: '127.0.0.1', memory: false });
    expect(parseDevServerArgs(['--port', '0', 'agent.js', '--memory', '--host', '0.0.0.0', '--user', 'ada'])).toEqual({
      module: 'agent.js',
      port: 0,
      host: '0.0.0.0',
      memory: true,
      user: 'ada',
    });
    expect(parseDevServerArgs(['agent.js', '--evals', 'qa/desk.evals.json'])).toMatchObject({ module: 'agent.js', evals: 'qa/desk.evals.json' });
    expect(() => parseDevServerArgs(['agent.js', '--evals'])).toThrow(/--evals needs a value/);
    expect(() => parseDevServerArgs(['agent.js', '--port', 'eighty'])).toThrow(/--port must be a port number/);
    expect(() => parseDevServerArgs([])).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
    expect(() => parseDevServerArgs(['a.js', '--json'])).toThrow(/Unknown option --json/);
  });

  it('serves the page and the API on 127.0.0.1 until stopped', async () => {
    const stdout = collector();
    const stop = new AbortController();
    let listening!: (server: DevServer) => void;
    const started = new Promise<DevServer>((resolve) => (listening = resolve));
    const done = runWebCommand(parseDevServerArgs([deskAgent, '--port', '0', '--memory']), { stdout, stderr: collector(), cwd: __dirname }, {
      signal: stop.signal,
      onListening: listening,
    });
    const server = await started;
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout.text()).toContain(
      `Toolsmith dev UI for desk_agent (agent desk_agent, model scripted/desk-script)\n  ${server.url}/#token=${server.token}\n` +
        "  (open this URL: it carries this launch's token, which every API request needs)\n  sessions: in memory",
    );

    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<script src="/app.js"></script>');
    const script = await fetch(`${server.url}/app.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${server.url}/api/info`)).status).toBe(401);
    const token = /#token=(\S+)/.exec(stdout.text())![1];
    expect(await (await fetch(`${server.url}/api/info`, { headers: { authorization: `Bearer ${token}` } })).json()).toMatchObject({ agentName: 'desk_agent' });

    stop.abort();
    expect(await done).toBe(0);
    await expect(fetch(`${server.url}/api/info`)).rejects.toThrow();
  });

  it('--evals: the eval cases are saved to (and run from) that file, relative to the current directory, and the path is printed', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'toolsmith-web-evals-'));
    try {
      const stdout = collector();
      const stop = new AbortController();
      let listening!: (server: DevServer) => void;
      const started = new Promise<DevServer>((resolve) => (listening = resolve));
      const done = runWebCommand(parseDevServerArgs([deskAgent, '--port', '0', '--memory', '--evals', 'qa/desk.evals.json']), { stdout, stderr: collector(), cwd }, { signal: stop.signal, onListening: listening });
      const server = await started;
      const file = join(cwd, 'qa', 'desk.evals.json');
      expect(stdout.text()).toContain(`  eval cases: ${file}\n`);
      const api = (path: string, body?: object) =>
        fetch(`${server.url}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(await (await api('/api/evals')).json()).toEqual({ file });
      const run = await api('/api/sessions/s-1/run', { text: 'Look up order A-1001' });
      expect(run.status).toBe(200);
      await run.text();
      expect((await api('/api/sessions/s-1/eval-case', {})).status).toBe(201);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ cases: [{ id: 's-1' }] });
      expect(existsSync(join(cwd, 'evals'))).toBe(false);
      stop.abort();
      expect(await done).toBe(0);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('reports a module that does not exist with its code and exits 2', async () => {
    const stderr = collector();
    const code = await main(['web', 'no-such-agent.js', '--port', '0'], { stdout: collector(), stderr, cwd: __dirname });
    expect(code).toBe(2);
    expect(stderr.text()).toMatch(/Cannot find module .*no-such-agent\.js.*\[AGENT_MODULE_NOT_FOUND\]/);
  });

  it('lists web, api and run in the usage and prints each one\'s help', async () => {
    const stdout = collector();
    await main(['--help'], { stdout, stderr: collector(), cwd: __dirname });
    expect(stdout.text()).toMatch(/run\s+chat with the agent/);
    expect(stdout.text()).toMatch(/web\s+serve a dev UI/);
    expect(stdout.text()).toMatch(/api\s+serve the dev UI's HTTP\/SSE API/);
    for (const command of ['web', 'api', 'run']) {
      const help = collector();
      expect(await main([command, '--help'], { stdout: help, stderr: collector(), cwd: __dirname })).toBe(0);
      expect(help.text()).toContain(`Usage: toolsmith ${command} <module>`);
    }
  });
});
