import 'reflect-metadata';
import { join } from 'node:path';
import { type Content, REQUEST_CONFIRMATION, Runner, confirmationRequests, confirmationResponsePart, findPendingCalls } from '@toolsmith/core';
import type { ConfirmationAnswer, ConfirmationRequest } from '@toolsmith/core';
import { pickModel, printEvent } from '@toolsmith/example-kit';
import { PostgresSessionService } from '@toolsmith/postgres';
import { createRefundAgent } from './agent';
import { type Approver, describeRequest, policyApprover, terminalApprover } from './approver';
import { failureText } from './failure-text';
import { createOfflineModel } from './offline-model';
import { Payments } from './payments';

/** What the demo says to the agent, in order: one refund below the threshold, two above it. */
export const DEMO_MESSAGES = ['Refund 40 for order A-1001', 'Refund 250 for order A-1002', 'Refund 900 for order A-1003'];

/** Where the demo keeps its sessions by default: an embedded PostgreSQL (PGlite) directory next to the example. */
export const DEFAULT_DATA_DIR = join(__dirname, '..', '.sessions');

/**
 * How the demo runs: `all` answers each pause in the same run (reopening the store first, as a later
 * process would); `until-pause` stops at the first pause and leaves it in the store; `resume` answers
 * what the stored session waits for, then sends the messages not sent yet.
 */
export type DemoMode = 'all' | 'until-pause' | 'resume';

/** Options of {@link main}, so tests can run the demo without a key or a terminal. */
export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  /** Decides each confirmation request. Default: a terminal prompt when stdin is a TTY, else a policy. */
  approver?: Approver;
  messages?: readonly string[];
  mode?: DemoMode;
  /** The embedded database directory. Default {@link DEFAULT_DATA_DIR}. */
  dataDir?: string;
}

const APP = 'refunds';
const USER = 'demo-user';
const SESSION = 'demo';
const RESUME_COMMAND = 'npm run approval -- --resume';

/**
 * Runs the refund agent over the messages, with sessions in an embedded PostgreSQL store on disk.
 * When a run pauses for approval, the store is closed and opened again and a brand-new Runner sends
 * the answer (mode `all`), as a server answering the approval later would; or the process ends and
 * a later one (`--resume`) answers it. Returns the refunds paid by this process.
 */
export async function main(options: MainOptions = {}): Promise<Payments> {
  const print = options.print ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  const mode = options.mode ?? 'all';
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const picked = pickModel(env, createOfflineModel);
  const terminal = options.approver || !process.stdin.isTTY ? undefined : terminalApprover();
  const approve = options.approver ?? terminal?.approve ?? policyApprover(500);
  if (!options.approver && !terminal && mode !== 'until-pause') {
    // Piped input is not read: approvals need a person at a terminal. Say so rather than ignore it quietly.
    print('(stdin is not a terminal: approvals are decided by a policy — refunds up to 500 € approved — not by your input)');
  }
  const payments = new Payments();
  const agent = createRefundAgent(picked.model);
  const open = () => {
    const sessionService = PostgresSessionService.embedded({ dataDir });
    return { sessionService, runner: new Runner({ appName: APP, agent, sessionService, providers: [{ provide: Payments, useValue: payments }] }) };
  };
  const close = async (opened: { sessionService: PostgresSessionService; runner: Runner }) => {
    await opened.runner.close();
    await opened.sessionService.close();
  };

  let current = open();
  print(`Toolsmith approval agent — ${picked.description}`);
  print(`Sessions: embedded PostgreSQL (PGlite) in ${dataDir}`);
  try {
    const messages = options.messages ?? DEMO_MESSAGES;
    let pending: Content | undefined;
    let remaining = messages;
    let resumed: ConfirmationRequest[] = [];
    const key = { appName: APP, userId: USER, sessionId: SESSION };
    if (mode === 'resume') {
      const session = await current.sessionService.getSession(key);
      const waiting = session ? [...findPendingCalls(session.events).confirmations.values()] : [];
      if (!session || waiting.length === 0) {
        print(`Nothing waits for an approval in ${dataDir}. Start with: npm run approval -- --pause`);
        return payments;
      }
      print(`Resuming the stored session: ${waiting.length} request(s) wait for an answer.`);
      const requests = waiting.map((record): ConfirmationRequest => ({
        call: { id: record.requestId, name: REQUEST_CONFIRMATION, args: {} },
        originalFunctionCall: record.originalFunctionCall,
        ...record.prompt,
      }));
      resumed = requests;
      pending = await answer(requests, approve, print);
      const sent = session.events.filter((event) => event.author === 'user' && event.text() !== '').map((event) => event.text());
      remaining = messages.filter((text) => !sent.includes(text));
    } else {
      await current.sessionService.deleteSession(key); // every demo starts a new conversation
    }

    const queue: Content[] = [...(pending ? [pending] : []), ...remaining.map((text): Content => ({ role: 'user', parts: [{ text }] }))];
    for (const first of queue) {
      print('');
      if (first.parts[0]?.text !== undefined) print(`User: ${first.parts[0].text}`);
      let newMessage = first;
      let asked = first === pending ? resumed : [];
      for (;;) {
        const requests: ConfirmationRequest[] = [];
        let refused = false;
        for await (const event of current.runner.run({ userId: USER, sessionId: SESSION, newMessage })) {
          printEvent(event, print);
          requests.push(...confirmationRequests(event));
          refused ||= event.errorCode === 'CONFIRMATION_EDIT_INVALID';
        }
        if (refused) {
          // The edited arguments broke the tool's schema: nothing ran, the request still waits. Ask again.
          newMessage = await answer(asked, approve, print);
          continue;
        }
        if (requests.length === 0) break;
        if (mode === 'until-pause') {
          print(`  … paused; the request is stored in ${dataDir}. Approve or deny it later with: ${RESUME_COMMAND}`);
          return payments;
        }
        // Everything the pause needs is in the database: close it, open it again, answer from a new Runner.
        await close(current);
        current = open();
        print('  … paused; the store was closed and reopened, and a new Runner answers from the stored session');
        asked = requests;
        newMessage = await answer(requests, approve, print);
      }
    }
  } finally {
    terminal?.close();
    await close(current);
  }
  print('');
  print(`Refunds paid by this process: ${JSON.stringify(payments.refunds)}`);
  return payments;
}

/** Asks the approver about each request and builds the one message answering them all. */
async function answer(requests: ConfirmationRequest[], approve: Approver, print: (line: string) => void): Promise<Content> {
  const parts = [];
  for (const request of requests) {
    const decision = await approve(request);
    print(`  ${decisionText(decision)}: ${describeRequest(request)}`);
    parts.push(confirmationResponsePart(request, decision));
  }
  return { role: 'user', parts };
}

/** How the demo prints a decision, e.g. `✎ approved with {"orderId":"A-1002","amount":100}`. */
function decisionText(answer: ConfirmationAnswer): string {
  if (!('decision' in answer)) return answer.confirmed ? '✔ approved' : '✘ denied';
  if (answer.decision === 'edit') return `✎ approved with ${JSON.stringify(answer.args)}`;
  if (answer.decision === 'reject') return answer.message === undefined ? '✘ denied' : `✘ denied ("${answer.message}")`;
  if (answer.decision === 'respond') return `↩ answered instead (${JSON.stringify(answer.result)})`;
  return '✔ approved';
}

/** The mode named on the command line: `--pause` or `--resume`, else `all`. */
export function modeFromArgs(args: readonly string[]): DemoMode {
  if (args.includes('--resume')) return 'resume';
  if (args.includes('--pause')) return 'until-pause';
  return 'all';
}

if (require.main === module) {
  main({ mode: modeFromArgs(process.argv.slice(2)) }).catch((error: unknown) => {
    console.error(failureText(error));
    process.exitCode = 1;
  });
}
