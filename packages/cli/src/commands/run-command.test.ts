import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../main';
import { parseRunArgs, runRunCommand } from './run-command';

// The offline desk agent of @toolsmith/devtools' tests (ScriptedModel): lookups, refunds needing approval above 100 €.
const fixtures = join(__dirname, '..', '..', '..', 'devtools', 'src', '__fixtures__');
const deskAgent = join(fixtures, 'desk-agent.ts');
const deskRunner = join(fixtures, 'desk-runner.ts');

function collector() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), text: () => text };
}

/** A collector that can wait until its text matches (the chat answered), with no timers. */
function watchedCollector() {
  let text = '';
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpExecArray) => void }> = [];
  return {
    write(chunk: string) {
      text += chunk;
      for (const waiter of [...waiters]) {
        const match = waiter.pattern.exec(text);
        if (match) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(match);
        }
      }
    },
    text: () => text,
    waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      const match = pattern.exec(text);
      return match ? Promise.resolve(match) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

/** Runs `toolsmith run` in-process with these lines as stdin (then end of input). */
async function chat(argv: string[], lines: string[]) {
  const stdout = collector();
  const stderr = collector();
  const input = new PassThrough();
  input.end(lines.map((line) => `${line}\n`).join(''));
  const code = await runRunCommand(parseRunArgs(argv), { stdout, stderr, cwd: __dirname }, input);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

// A bound, not a wait: the first test loads and scans the agent module, slow when the whole suite shares the machine.
jest.setTimeout(60_000);

describe('toolsmith run', () => {
  it('parses its options', () => {
    expect(parseRunArgs(['agent.js'])).toEqual({ module: 'agent.js', json: false, memory: false });
    expect(parseRunArgs(['--json', 'agent.js', '--session', 's1', '--memory'])).toEqual({ module: 'agent.js', json: true, memory: true, session: 's1' });
    expect(() => parseRunArgs([])).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
    expect(() => parseRunArgs(['a.js', '--session'])).toThrow(/--session needs a value/);
    expect(() => parseRunArgs(['a.js', '--port', '1'])).toThrow(/Unknown option --port/);
  });

  it('prints the conversation as the demo does: calls, results, state changes, answers', async () => {
    const { code, stdout } = await chat([deskAgent, '--memory'], ['Look up order A-1001']);
    expect(code).toBe(0);
    expect(stdout).toContain('Toolsmith run — desk_agent (agent desk_agent, model scripted/desk-script), session ');
    expect(stdout).toContain('Sessions: in memory');
    expect(stdout).toContain(`User: Look up order A-1001
  → lookupOrder({"orderId":"A-1001"})
  ← lookupOrder: {"orderId":"A-1001","status":"shipped","total":120}
  ✎ state lastOrder = "A-1001"
Agent: Order A-1001 has shipped; its total is 120 €.`);
  });

  it('asks y/N with an optional payload for a confirmation, and the run finishes', async () => {
    const { stdout } = await chat([deskAgent, '--memory'], ['Refund 250 for order A-1002', 'y {"approver":"Ada"}', 'Refund 900 for order A-1003', 'n']);
    expect(stdout).toContain(`  → refund({"orderId":"A-1002","amount":250})
  → toolsmith_request_confirmation(`);
    expect(stdout).toContain('  Approve refund({"orderId":"A-1002","amount":250})? (Refund 250 € for order A-1002?) [y/N, e <args>, r <answer>, a <scope> [min]] ');
    expect(stdout).toContain(`  ✔ approved with {"approver":"Ada"}
  ← refund: {"status":"refunded","orderId":"A-1002","amount":250,"approvedBy":"Ada"}
Agent: Refunded 250 € for order A-1002 (approved by Ada).`);
    expect(stdout).toContain(`  ✘ denied
  ← refund failed: {"error":{"code":"TOOL_CALL_REJECTED"`);
    expect(stdout).toContain('Agent: The refund was not approved, so nothing was refunded.');
  });

  it('edits the arguments (a refused edit is printed with its problems and asked again), rejects with a message, responds instead', async () => {
    const { ledger } = require(deskAgent) as typeof import('../../../devtools/src/__fixtures__/desk-agent');
    const { stdout } = await chat(
      [deskAgent, '--memory'],
      ['Refund 250 for order A-2001', 'e {"orderId":"A-2001","amount":0}', 'e [1]', 'maybe', 'e {"orderId":"A-2001","amount":100}', 'Refund 900 for order A-2002', 'n Only 100, please.', 'Refund 400 for order A-2003', 'r {"status":"refunded by phone"}'],
    );
    const refused = stdout.indexOf('  ! CONFIRMATION_EDIT_INVALID: ');
    expect(refused).toBeGreaterThan(0);
    expect(stdout.slice(refused).split('\n')[0]).toContain('amount');
    // Only an answer the runner took is announced: the refused edit never says "approved".
    expect(stdout).not.toContain('✎ approved with edited arguments {"orderId":"A-2001","amount":0}');
    expect(stdout).toContain('  Edited arguments must be a JSON object, e.g. e {"orderId":"A-1002","amount":100}');
    expect(stdout).toContain('  Answer y (approve), n [message] (reject), e <json arguments> (edit), r <answer> (respond instead) or a <session|user|app> [minutes] (always allow).');
    expect(stdout).toContain(`  ✎ approved with edited arguments {"orderId":"A-2001","amount":100}
  ← refund: {"result":{"status":"refunded","orderId":"A-2001","amount":100},"argumentsEditedByUser":{"orderId":"A-2001","amount":100}}
Agent: Refunded 100 € for order A-2001 with the amount you set.`);
    expect(stdout).toContain(`  ✘ denied: "Only 100, please."
  ← refund failed: {"error":{"code":"TOOL_CALL_REJECTED","message":"The user rejected the call and said: \\"Only 100, please.\\". Do not retry it unless the user asks."}}
Agent: The refund was not approved; the manager said "Only 100, please.".`);
    expect(stdout).toContain(`  ↩ answered instead: {"status":"refunded by phone"}
  ← refund: {"status":"refunded by phone"}`);
    expect(ledger.refunds.filter((r) => r.orderId.startsWith('A-200'))).toEqual([{ orderId: 'A-2001', amount: 100 }]);
  });

  it('does not offer "always allow" for a request the tool made itself (ctx.requestConfirmation): "a session" is answered and the question asked again', async () => {
    const selfAsking = join(__dirname, '..', '__fixtures__', 'self-asking-agent.ts');
    const { purged } = require(selfAsking) as typeof import('../__fixtures__/self-asking-agent');
    const { stdout } = await chat([selfAsking, '--memory'], ['purge the images', 'a session', 'y']);
    expect(stdout).toContain('  Approve purge({"cache":"img"})? (Purge img?) [y/N, e <args>, r <answer>] ');
    expect(stdout).not.toContain('a <scope> [min]');
    expect(stdout).toContain('  Always allow does not apply here: purge asked itself, and asks every time. Answer y, n, e or r.');
    expect(stdout).toContain(`  ✔ approved
  ← purge: {"purged":"img"}`);
    expect(stdout).not.toContain('always allowed');
    expect(purged).toEqual(['img']);
  });

  it('does not offer an edit for a request with editable: false; "e" typed anyway prints the runner\'s refusal and asks again; n, r and y are taken', async () => {
    const { ledger } = require(deskAgent) as typeof import('../../../devtools/src/__fixtures__/desk-agent');
    const { stdout } = await chat(
      [deskAgent, '--memory'],
      ['Cancel order A-2101', 'e {"orderId":"A-2199"}', 'maybe', 'n Not this one.', 'Cancel order A-2102', 'r {"status":"cancelled by phone"}', 'Cancel order A-2103', 'y'],
    );
    const prompt = '  Approve cancelOrder({"orderId":"A-2101"})? (Cancel order A-2101 as it was placed?) [y/N, r <answer>] ';
    expect(stdout).toContain(`${prompt}! INVALID_CONFIRMATION_ANSWER: The answer to confirmation request "confirm-`);
    expect(stdout).toMatch(/was refused: this request cannot be answered with "edit" \("editable": false\): its question is about the call as it was made; approve, reject or respond\.\n/);
    expect(stdout).toContain(`${prompt}  Answer y (approve), n [message] (reject) or r <answer> (respond instead).\n${prompt}  ✘ denied: "Not this one."`);
    expect(stdout).not.toContain('e <args>');
    expect(stdout).not.toContain('approved with edited arguments');
    expect(stdout).toContain('Agent: The order stays; the manager said "Not this one.".');
    expect(stdout).toContain(`  ↩ answered instead: {"status":"cancelled by phone"}
  ← cancelOrder: {"status":"cancelled by phone"}
Agent: The cancellation's result: {"status":"cancelled by phone"}.`);
    expect(stdout).toContain(`  ✔ approved
  ← cancelOrder: {"status":"cancelled","orderId":"A-2103"}
Agent: Order A-2103 is cancelled.`);
    expect(ledger.cancelled.filter((id) => id.startsWith('A-21'))).toEqual(['A-2103']);
  });

  it('"a user 0.33333" (a fraction of a minute) remembers a grant until a whole ms; minutes too far away are refused at the prompt', async () => {
    const { stdout } = await chat([deskAgent, '--memory'], ['Refund 250 for order A-3101', 'a user 1e20', 'a user 0.33333']);
    expect(stdout).toMatch(/ {2}1e20 minutes is too far away: give at most \d+ minutes, or none for no expiry/);
    expect(stdout).toMatch(/ {2}✔ approved, and always allowed for this user until \d{4}-\d\d-\d\dT[\d:.]+Z\n {2}← refund: \{"status":"refunded","orderId":"A-3101","amount":250\}/);
    expect(stdout).not.toContain('INTERNAL_ERROR');
  });

  it('"a session 60" approves and remembers a grant: the next refund runs without asking; /grants lists it, /revoke revokes it and the next one asks again', async () => {
    const stdout = watchedCollector();
    const input = new PassThrough();
    const done = runRunCommand(parseRunArgs([deskAgent, '--memory']), { stdout, stderr: collector(), cwd: __dirname }, input);
    input.write(['/grants', 'Refund 250 for order A-3001', 'a session 60', 'Refund 260 for order A-3002', '/grants', '/revoke nope', ''].join('\n'));
    const [, grantId] = await stdout.waitFor(/(grant-\S+): always allow refund for session \S+, until \d{4}-/);
    await stdout.waitFor(/There is no grant "nope"/);
    input.end(`/revoke ${grantId}\n/grants\nRefund 270 for order A-3003\n`);
    expect(await done).toBe(0);
    const text = stdout.text();
    expect(text).toContain('  No grants: every call that needs approval asks.');
    expect(text).toMatch(/ {2}✔ approved, and always allowed for this session until \d{4}-\d\d-\d\dT/);
    const second = text.slice(text.indexOf('User: Refund 260 for order A-3002'));
    expect(second.slice(0, second.indexOf('Agent:'))).not.toContain('Approve refund');
    expect(second).toContain(`  ← refund: {"status":"refunded","orderId":"A-3002","amount":260}
    ✔ allowed by grant ${grantId}`);
    expect(text).toContain('! There is no grant "nope" in app "desk_agent".');
    expect(text).toContain(`  revoked ${grantId}: the next call it covered asks again`);
    expect(text.split('No grants: every call that needs approval asks.')).toHaveLength(3);
    expect(text).toContain('  Approve refund({"orderId":"A-3003","amount":270})?');
  });

  it('an agent used as a tool asks through it: the inner call is shown, an edit is checked against the inner tool, and the inner agent goes on', async () => {
    const janitorAgent = join(fixtures, 'janitor-agent.ts');
    const { wiped } = require(janitorAgent) as typeof import('../../../devtools/src/__fixtures__/janitor-agent');
    const { stdout } = await chat([janitorAgent, '--memory'], ['Please wipe sdb', 'e {"disk":"C:"}', 'e {"disk":"sdc"}', 'Please wipe sdd', 'n Not that one.']);
    expect(stdout).toContain('  Approve wipe({"disk":"sdb"}) (asked by janitor, inside janitor)? (Wipe sdb?)');
    expect(stdout).toMatch(/! CONFIRMATION_EDIT_INVALID: .*wipe/);
    expect(stdout).toContain('Agent: The janitor reports: {"result":"Wiped sdc."}');
    // The agent tool's printed result lists the inner call and the decision on it.
    expect(stdout).toContain('  ← janitor: {"result":"Wiped sdc."}\n    ↳ janitor → wipe: approved with {"disk":"sdc"} by the user\n');
    expect(stdout).toContain('    ↳ janitor → wipe: denied by the user ("Not that one.")\n');
    expect(stdout).toContain('Agent: The janitor reports: {"result":"Not wiped: The user rejected the call and said: \\"Not that one.\\". Do not retry it unless the user asks."}');
    expect(wiped).toEqual(['sdc']);
  });

  it('an agent tool inside an agent tool: the prompt names the innermost call, an edit of the middle call is refused for it, and the edit of the innermost call runs', async () => {
    const bossAgent = join(fixtures, 'boss-agent.ts');
    const { wiped } = require(bossAgent) as typeof import('../../../devtools/src/__fixtures__/boss-agent');
    const { stdout } = await chat([bossAgent, '--memory'], ['Please wipe sdb', 'e {"request":"something else"}', 'e {"disk":"sdc"}']);
    expect(stdout).toContain('  Approve wipe({"disk":"sdb"}) (asked by janitor, inside boss)? (Wipe sdb?)');
    expect(stdout).toMatch(/! CONFIRMATION_EDIT_INVALID: .*refused for tool "wipe"/);
    expect(stdout).toContain('  ← boss: {"result":"The janitor reports: {\\"result\\":\\"Wiped sdc.\\"}"}\n    ↳ janitor → wipe: approved with {"disk":"sdc"} by the user\n');
    expect(wiped).toEqual(['sdc']);
  });

  it('--session resumes a stored session, asking first about the approval it waits for', async () => {
    // The module exports a Runner: its own store outlives one command, as a durable store would.
    const first = await chat([deskRunner, '--session', 'terminal-1'], ['Refund 300 for order A-1004']);
    expect(first.stdout).toContain('Approve refund({"orderId":"A-1004","amount":300})?');
    expect(first.stdout).not.toContain('Agent: Refunded');

    const second = await chat([deskRunner, '--session', 'terminal-1'], ['y']);
    expect(second.stdout).toContain('Resuming session terminal-1: ');
    expect(second.stdout).toContain('Approve refund({"orderId":"A-1004","amount":300})?');
    expect(second.stdout).toContain('Agent: Refunded 300 € for order A-1004.');
  });

  it('sends a long-running call a progress update and its result with /progress and /update', async () => {
    const stdout = watchedCollector();
    const input = new PassThrough();
    const done = runRunCommand(parseRunArgs([deskAgent, '--memory']), { stdout, stderr: collector(), cwd: __dirname }, input);
    input.write('Export the customers\n');
    const [, callId] = await stdout.waitFor(/startExport is running \(call (\S+)\)/);
    input.write(`/progress ${callId} {"status":"half done"}\n`);
    await stdout.waitFor(/The export is half done\./);
    input.end(`/update ${callId} {"status":"done"}\n`);
    expect(await done).toBe(0);
    expect(stdout.text()).toContain('  ← startExport: {"status":"pending","ticket":"export-customers"}');
    expect(stdout.text()).toContain(`  ↻ progress for ${callId}: {"status":"half done"}`);
    expect(stdout.text()).toContain('Agent: The export is done.');
    // After the final update nothing waits any more.
    expect(stdout.text().split('Agent: The export is done.')[1]).not.toContain('is running');
  });

  it('/ask sends an update with a question; the question asks for its payload, a payload outside its form is refused and asked again, and the tool\'s next update prints', async () => {
    const stdout = watchedCollector();
    const input = new PassThrough();
    const done = runRunCommand(parseRunArgs([deskAgent, '--memory']), { stdout, stderr: collector(), cwd: __dirname }, input);
    input.write('Export the orders\n');
    const [, callId] = await stdout.waitFor(/startExport is running \(call (\S+)\)/);
    input.write(`/ask ${callId} {"status":"blocked"}\n`); // no question: said, nothing sent
    await stdout.waitFor(/\/ask takes the update and the question, two JSON objects/);
    const form = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] };
    input.write(`/ask ${callId} {"status":"blocked","rows":12} {"hint":"Keep the 12 locked rows?","payloadSchema":${JSON.stringify(form)}}\n`);
    const prompt = /Answer with the payload as JSON \(it must fill in the form\) \[<json>, n \[message\], r <answer>\] $/;
    await stdout.waitFor(prompt);
    input.write('\n'); // empty: asked again
    input.write('a session\n'); // a question is never always allowed: asked again
    input.write('{"keep":"yes"}\n'); // outside the form: refused by the runner's check, asked again
    await stdout.waitFor(/! INVALID_CONFIRMATION_ANSWER: [^\n]*its "payload" does not fill in the request's form \(keep: got "yes", expected boolean\)\.\n[\s\S]*Answer with the payload as JSON[^\n]*\] $/);
    input.write('{"keep":true}\n');
    await stdout.waitFor(/Agent: The export is running\./);
    input.end();
    expect(await done).toBe(0);
    const text = stdout.text();
    expect(text).toContain(`  ↻ progress for ${callId}: {"status":"blocked","rows":12}, asking {"hint":"Keep the 12 locked rows?","payloadSchema":${JSON.stringify(form)}}`);
    expect(text).toContain(`  ? startExport (call ${callId}) asks: Keep the 12 locked rows?\n    form: ${JSON.stringify(form)}\n`);
    expect(text).toContain('  Answer with the payload (JSON), n [message] to reject, or r <answer> to respond instead.');
    expect(text).toContain('  The call already ran, so its arguments cannot be edited, and a question is never always allowed.');
    expect(text).toContain(`  ✔ answered with {"keep":true}
  ← startExport: {"status":"running","table":"orders","answer":{"keep":true}}`);
    expect(text.match(/Answer with the payload as JSON/g)).toHaveLength(4);
    expect(text).not.toContain('Approve startExport');
  });

  it('a question answered "r <answer>" makes that the next update (the tool does not run), "y <payload>" approves, "n <message>" reaches the tool as a rejection: the export ends', async () => {
    const stdout = watchedCollector();
    const input = new PassThrough();
    const done = runRunCommand(parseRunArgs([deskAgent, '--memory']), { stdout, stderr: collector(), cwd: __dirname }, input);
    input.write('Export the customers\n');
    const [, callId] = await stdout.waitFor(/startExport is running \(call (\S+)\)/);
    const asked = (from: number) => stdout.waitFor(new RegExp(`^[\\s\\S]{${from}}[\\s\\S]*\\? startExport \\(call \\S+\\) asks: Go on\\?\\n {2}Answer with the payload as JSON \\[<json>, n \\[message\\], r <answer>\\] $`));
    input.write(`/ask ${callId} {"status":"blocked"} {"hint":"Go on?"}\n`);
    await asked(0);
    input.write('r {"status":"skipped by hand"}\n');
    await stdout.waitFor(/↩ answered instead: \{"status":"skipped by hand"\}\n {2}← startExport: \{"status":"skipped by hand"\}/);
    const second = stdout.text().length;
    input.write(`/ask ${callId} {"status":"blocked"} {"hint":"Go on?"}\n`);
    await asked(second);
    input.write('y {"go":true}\n');
    await stdout.waitFor(/✔ answered with \{"go":true\}\n {2}← startExport: \{"status":"running","table":"customers","answer":\{"go":true\}\}/);
    const third = stdout.text().length;
    input.write(`/ask ${callId} {"status":"blocked"} {"hint":"Go on?"}\n`);
    await asked(third);
    input.end('n not today\n');
    expect(await done).toBe(0);
    expect(stdout.text()).toContain(`  ✘ denied: "not today"
  ← startExport: {"status":"cancelled","table":"customers","because":"not today"}`);
    expect(stdout.text().split('not today')[2]).not.toContain('is running'); // the call ended
  });

  it('--json prints each event as one JSON line on stdout and the prompts on stderr', async () => {
    const { stdout, stderr } = await chat([deskAgent, '--memory', '--json'], ['Refund 250 for order A-1002', 'y']);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { author: string; content?: { parts: Array<Record<string, unknown>> } });
    expect(events.every((event) => event.author === 'desk_agent')).toBe(true);
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'Refunded 250 € for order A-1002.' }]);
    expect(stderr).toContain('Approve refund(');
    expect(stderr).toContain('Toolsmith run — desk_agent');
  });

  it('gives every message an id, and /retry sends the last one again under it: nothing is stored or run twice, the answer is what that message produced', async () => {
    const { runner } = require(deskRunner) as typeof import('../../../devtools/src/__fixtures__/desk-runner');
    const { ledger } = require(deskAgent) as typeof import('../../../devtools/src/__fixtures__/desk-agent');
    const { stdout } = await chat([deskRunner, '--session', 'terminal-retry'], ['/retry', 'Refund 50 for order A-1005', '/retry', 'Please break the model', '/retry']);
    const session = (await runner.sessionService.getSession({ appName: 'desk_app', userId: 'dev-user', sessionId: 'terminal-retry' }))!;

    expect(stdout).toContain('Nothing was sent yet: there is nothing to send again.');
    const [, refundId] = /↻ sending message (\S+) again\n {2}→ refund\(/.exec(stdout) ?? [];
    expect(refundId).toBeDefined();
    // The retry printed the stored run again: the call, its result and the answer, a second time.
    expect(stdout.split('Agent: Refunded 50 € for order A-1005.')).toHaveLength(3);
    expect(stdout.split('The desk model is down.').length).toBe(3);
    // Stored once each: two messages, the refund's call, result and answer, the failed model call's error.
    expect(session.events.filter((e) => e.author === 'user').map((e) => [e.id.startsWith('msg:'), e.text()])).toEqual([
      [true, 'Refund 50 for order A-1005'],
      [true, 'Please break the model'],
    ]);
    expect(session.events.filter((e) => e.errorCode === 'PROVIDER_ERROR')).toHaveLength(1);
    expect(session.events.flatMap((e) => e.functionResponses()).map((r) => r.name)).toEqual(['refund']);
    expect(ledger.refunds.filter((r) => r.orderId === 'A-1005')).toHaveLength(1); // the tool ran once
  });

  it('reports a module without an agent with its code and exits 2', async () => {
    const stdout = collector();
    const stderr = collector();
    const code = await main(['run', join(fixtures, 'read-sse.ts')], { stdout, stderr, cwd: __dirname });
    expect(code).toBe(2);
    expect(stderr.text()).toMatch(/exports no agent and no Runner.*\[NO_AGENT_EXPORTED\]/s);
  });
});
