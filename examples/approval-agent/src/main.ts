import 'reflect-metadata';
import { type Content, InMemorySessionService, Runner, confirmationRequests, confirmationResponsePart } from '@toolsmith/core';
import type { ConfirmationRequest } from '@toolsmith/core';
import { pickModel, printEvent } from '@toolsmith/example-kit';
import { createRefundAgent } from './agent';
import { type Approver, describeRequest, policyApprover, terminalApprover } from './approver';
import { createOfflineModel } from './offline-model';
import { Payments } from './payments';

/** What the demo says to the agent, in order: one refund below the threshold, two above it. */
export const DEMO_MESSAGES = ['Refund 40 for order A-1001', 'Refund 250 for order A-1002', 'Refund 900 for order A-1003'];

/** Options of {@link main}, so tests can run the demo without a key or a terminal. */
export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  /** Decides each confirmation request. Default: a terminal prompt when stdin is a TTY, else a policy. */
  approver?: Approver;
  messages?: readonly string[];
}

const APP = 'refunds';
const USER = 'demo-user';
const SESSION = 'demo';

/**
 * Runs the refund agent over the messages. When a run pauses for approval, the session is saved as
 * JSON and loaded into a brand-new Runner, as a server answering the approval later (or in another
 * process) would; the answer is sent there and the run continues. Returns the refunds paid.
 */
export async function main(options: MainOptions = {}): Promise<Payments> {
  const print = options.print ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  const picked = pickModel(env, createOfflineModel);
  const terminal = options.approver || !process.stdin.isTTY ? undefined : terminalApprover();
  const approve = options.approver ?? terminal?.approve ?? policyApprover(500);
  if (!options.approver && !terminal) {
    // Piped input is not read: approvals need a person at a terminal. Say so rather than ignore it quietly.
    print('(stdin is not a terminal: approvals are decided by a policy — refunds up to 500 € approved — not by your input)');
  }
  const payments = new Payments();
  const agent = createRefundAgent(picked.model);
  const startRunner = (sessionService: InMemorySessionService) =>
    new Runner({ appName: APP, agent, sessionService, providers: [{ provide: Payments, useValue: payments }] });

  let sessionService = new InMemorySessionService();
  let runner = startRunner(sessionService);
  print(`Toolsmith approval agent — ${picked.description}`);
  try {
    for (const text of options.messages ?? DEMO_MESSAGES) {
      print('');
      print(`User: ${text}`);
      let newMessage: Content = { role: 'user', parts: [{ text }] };
      for (;;) {
        const requests: ConfirmationRequest[] = [];
        for await (const event of runner.run({ userId: USER, sessionId: SESSION, newMessage })) {
          printEvent(event, print);
          requests.push(...confirmationRequests(event));
        }
        if (requests.length === 0) break;

        // Everything the pause needs is in the session: restart from its JSON to show it.
        const saved = JSON.stringify(sessionService.toJSON());
        await runner.close();
        sessionService = InMemorySessionService.fromJSON(JSON.parse(saved));
        runner = startRunner(sessionService);
        print(`  … paused; session saved (${saved.length} bytes of JSON) and loaded into a new Runner`);

        const parts = [];
        for (const request of requests) {
          const answer = await approve(request);
          print(`  ${answer.confirmed ? '✔ approved' : '✘ denied'}: ${describeRequest(request)}`);
          parts.push(confirmationResponsePart(request.call, answer));
        }
        newMessage = { role: 'user', parts };
      }
    }
  } finally {
    terminal?.close();
    await runner.close();
  }
  print('');
  print(`Refunds paid: ${JSON.stringify(payments.refunds)}`);
  return payments;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
