import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

// `toolsmith run` as a person uses it: the real bin in its own process, reading answers from stdin as
// its questions appear, on the offline desk agent (ScriptedModel) of @toolsmith/devtools' tests.
const BIN = resolve(__dirname, '..', '..', 'bin', 'toolsmith.js');
const deskAgent = join(__dirname, '..', '..', '..', 'devtools', 'src', '__fixtures__', 'desk-agent.ts');
jest.setTimeout(60_000); // a bound for starting node and compiling the fixture on a busy machine, not a wait

/** The spawned CLI: its stdout so far, and a promise per pattern it should print (no timers). */
function startCli(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...args], { cwd: __dirname, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; from: number; resolve(match: RegExpExecArray): void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stdout.slice(waiter.from));
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let mark = 0;
  return {
    /** Resolves when stdout, after what earlier waits consumed, matches `pattern`; fails with the output if the CLI exits first. */
    async next(pattern: RegExp): Promise<RegExpExecArray> {
      const from = mark;
      const seen = new Promise<RegExpExecArray>((resolve) => {
        const match = pattern.exec(stdout.slice(from));
        if (match) resolve(match);
        else waiters.push({ pattern, from, resolve });
      });
      const match = await Promise.race([seen, exited.then((code) => Promise.reject(new Error(`toolsmith run exited (${code}) before printing ${pattern}:\n${stdout}\n${stderr}`)))]);
      mark = from + match.index + match[0].length;
      return match;
    },
    send: (line: string) => child.stdin.write(`${line}\n`),
    end: async () => {
      child.stdin.end();
      return { code: await exited, stdout, stderr };
    },
  };
}

describe('toolsmith run in its own process, answering from stdin', () => {
  it('takes the four decisions and an always-allow grant, which /revoke takes back; answers a long-running call\'s question', async () => {
    const cli = startCli(['run', deskAgent, '--memory']);
    await cli.next(/Type a message/);
    const question = /Approve refund\((.*)\)\? .*\[y\/N, e <args>, r <answer>, a <scope> \[min\]\] $/m;

    cli.send('Refund 250 for order A-4001');
    await cli.next(question);
    cli.send('e {"orderId":"A-4001","amount":-5}');
    await cli.next(/! CONFIRMATION_EDIT_INVALID: .*amount/);
    await cli.next(question); // still open: asked again
    cli.send('e {"orderId":"A-4001","amount":90}');
    await cli.next(/Agent: Refunded 90 € for order A-4001 with the amount you set\./);

    cli.send('Refund 900 for order A-4002');
    await cli.next(question);
    cli.send('n Not this month.');
    await cli.next(/Agent: The refund was not approved; the manager said "Not this month."\./);

    cli.send('Refund 400 for order A-4003');
    await cli.next(question);
    cli.send('r refunded in cash');
    await cli.next(/← refund: \{"result":"refunded in cash"\}/);

    cli.send('Refund 300 for order A-4004');
    await cli.next(question);
    cli.send('a user');
    await cli.next(/Agent: Refunded 300 € for order A-4004\./);
    cli.send('/grants');
    const [, grantId] = await cli.next(/(grant-\S+): always allow refund for user dev-user\n/);
    cli.send('Refund 310 for order A-4005');
    await cli.next(new RegExp(`✔ allowed by grant ${grantId}\\nAgent: Refunded 310 € for order A-4005\\.`));

    cli.send(`/revoke ${grantId}`);
    await cli.next(/revoked grant-/);
    cli.send('Refund 320 for order A-4006');
    await cli.next(question);
    cli.send('y');
    await cli.next(/Agent: Refunded 320 € for order A-4006\./);

    // A question about the call as it was made (editable: false) offers no edit; one typed anyway is refused, and asked again.
    const sealed = /Approve cancelOrder\(\{"orderId":"A-4007"\}\)\? \(Cancel order A-4007 as it was placed\?\) \[y\/N, r <answer>\] $/;
    cli.send('Cancel order A-4007');
    await cli.next(sealed);
    cli.send('e {"orderId":"A-4008"}');
    await cli.next(/! INVALID_CONFIRMATION_ANSWER: .*cannot be answered with "edit" \("editable": false\)/);
    await cli.next(sealed); // still open: asked again
    cli.send('y');
    await cli.next(/✔ approved\n {2}← cancelOrder: \{"status":"cancelled","orderId":"A-4007"\}\nAgent: Order A-4007 is cancelled\./);

    // A long-running call's update asks a question: its payload is asked for, checked against the form.
    cli.send('Export the orders');
    const [, callId] = await cli.next(/startExport is running \(call (\S+)\)/);
    cli.send(`/ask ${callId} {"status":"blocked"} {"hint":"Keep the locked rows?","payloadSchema":{"type":"object","properties":{"keep":{"type":"boolean"}},"required":["keep"]}}`);
    const answerPrompt = /\? startExport \(call \S+\) asks: Keep the locked rows\?\n.*\n {2}Answer with the payload as JSON \(it must fill in the form\) \[<json>, n \[message\], r <answer>\] $/;
    await cli.next(answerPrompt);
    cli.send('{"keep":1}');
    await cli.next(/! INVALID_CONFIRMATION_ANSWER: .*keep: got 1, expected boolean/);
    await cli.next(answerPrompt); // still open: asked again
    cli.send('{"keep":false}');
    await cli.next(/✔ answered with \{"keep":false\}\n {2}← startExport: \{"status":"running","table":"orders","answer":\{"keep":false\}\}\nAgent: The export is running\./);

    const { code, stdout, stderr } = await cli.end();
    expect([code, stderr.includes('Error')]).toEqual([0, false]);
    // Asked six times (A-4001 twice: its edit was refused), never for the granted refund.
    expect(stdout.match(/Approve refund\(/g)).toHaveLength(6);
    expect(stdout).not.toContain('Approve refund({"orderId":"A-4005"');
  });
});
