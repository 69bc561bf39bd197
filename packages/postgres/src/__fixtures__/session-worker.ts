// A separate OS process running Toolsmith runners on one PostgreSQL database, driven by the
// multi-process tests over IPC. Each message { id, scenario, ... } runs invocations and answers
// { id, results, toolRuns }: the events of each run (plain JSON) and how often a tool ran for it.
import type { Content, EventData, Part, SessionClaimPolicy } from '@toolsmith/core';
import { LlmAgent, Runner, functionTool } from '@toolsmith/core';
import type { ScriptedCall } from '@toolsmith/core/testing';
import { ScriptedModel } from '@toolsmith/core/testing';
import { PostgresSessionService } from '../index';

interface Command {
  id: number;
  scenario: 'confirm' | 'count' | 'charge' | 'slow' | 'tally' | 'book';
  sessionId: string;
  message: Content;
  /** How many runs to start at once on the session (count), or on sessions `<sessionId>-<pid>-<i>` (tally, book). */
  runs?: number;
  /** The runner's session claim terms (lease, wait or fail). */
  sessionClaim?: SessionClaimPolicy;
}

const [url, schema] = process.argv.slice(2);
const sessionService = new PostgresSessionService({ connectionString: url, schema, poolSize: 4 });
let toolRuns = 0;

const refund = functionTool({
  name: 'refund',
  description: 'Refunds an amount.',
  parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  requireConfirmation: true,
  execute: ({ amount }: { amount: number }) => {
    toolRuns++;
    return { refunded: amount };
  },
});

const increment = functionTool({
  name: 'increment',
  description: 'Adds one to the user counter.',
  execute: (_args, ctx) => {
    toolRuns++;
    const next = ((ctx.state.get('user:count') as number | undefined) ?? 0) + 1;
    ctx.state.set('user:count', next);
    return { count: next };
  },
});

// Tells the parent it is inside the tool, then never returns: the parent kills this process here.
const charge = functionTool({
  name: 'charge',
  description: 'Charges the card.',
  execute: () => {
    toolRuns++;
    process.send!({ insideTool: true });
    return new Promise<object>(() => {});
  },
});

// Tells the parent it is inside the tool and finishes when the parent says so (a slow, living holder).
let finishSlow: (() => void) | undefined;
const slow = functionTool({
  name: 'slow',
  description: 'Takes its time.',
  execute: async () => {
    toolRuns++;
    const finished = new Promise<void>((resolve) => (finishSlow = resolve));
    process.send!({ insideTool: true });
    await finished;
    return { done: true };
  },
});

// Counts in shared state with an increment applied in the append, one per run, each run on its own session.
const tally = functionTool({
  name: 'tally',
  description: 'Counts a visit for the app and the user.',
  execute: (_args, ctx) => {
    toolRuns++;
    return { app: ctx.state.increment('app:tally'), user: ctx.state.increment('user:tally') };
  },
});

// Books the one seat with a compare-and-set, then says it is inside the tool and waits until the parent
// lets every booking go on (so all of them read "free" before any stores its step).
const bookWaiters: Array<() => void> = [];
const book = functionTool({
  name: 'book',
  description: 'Books the seat.',
  execute: async (_args, ctx) => {
    toolRuns++;
    const booked = ctx.state.compareAndSet('app:seat', undefined, ctx.sessionId);
    const released = new Promise<void>((resolve) => bookWaiters.push(resolve));
    process.send!({ insideTool: true });
    await released;
    return { booked };
  },
});

/**
 * A model that calls `call` for a user's message and answers `text` once it sees a result (the latest
 * content is one, or the history already answers the call's fixed id): every process and every run
 * starts the same way, and a run refused as stale shifts no script.
 */
function answersAfterResult(text: string, call: ScriptedCall): ScriptedModel {
  return new ScriptedModel((request) => {
    const answered = (part: Part) => part.functionResponse !== undefined && (call.id === undefined || part.functionResponse.id === call.id);
    const seen = call.id === undefined ? (request.contents.at(-1)?.parts ?? []).some(answered) : request.contents.some((content) => content.parts.some(answered));
    return seen ? text : { calls: [call] };
  }, { keepRequests: false });
}

function runnerFor(command: Command): Runner {
  const sessionClaim = command.sessionClaim;
  switch (command.scenario) {
    case 'confirm':
      return new Runner({
        appName: 'shop',
        agent: new LlmAgent({ name: 'clerk', model: answersAfterResult('Refunded 250.', { id: 'call-1', name: 'refund', args: { amount: 250 } }), tools: [refund] }),
        sessionService,
        sessionClaim,
      });
    case 'count': {
      const model = answersAfterResult('counted', { name: 'increment', args: {} });
      return new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'counter', model, tools: [increment] }), sessionService, sessionClaim });
    }
    case 'slow':
      return new Runner({
        appName: 'shop',
        agent: new LlmAgent({ name: 'tortoise', model: answersAfterResult('Done, slowly.', { id: 'slow-1', name: 'slow', args: {} }), tools: [slow] }),
        sessionService,
        sessionClaim,
      });
    case 'tally':
      return new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'counter', model: answersAfterResult('tallied', { name: 'tally', args: {} }), tools: [tally] }), sessionService, sessionClaim });
    case 'book':
      return new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: answersAfterResult('booking done', { name: 'book', args: {} }), tools: [book] }), sessionService, sessionClaim });
    case 'charge':
      return new Runner({
        appName: 'shop',
        agent: new LlmAgent({ name: 'cashier', model: answersAfterResult('The charge may not have gone through; I did not retry it.', { id: 'charge-1', name: 'charge', args: {} }), tools: [charge] }),
        sessionService,
        sessionClaim,
      });
  }
}

async function runOnce(runner: Runner, sessionId: string, message: Content): Promise<EventData[]> {
  const events: EventData[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId, newMessage: message })) events.push(event.toJSON());
  return events;
}

process.on('message', (command: Command | 'exit' | 'finish' | 'release-bookings') => {
  if (command === 'finish') {
    finishSlow!();
    return;
  }
  if (command === 'release-bookings') {
    for (const release of bookWaiters.splice(0)) release();
    return;
  }
  if (command === 'exit') {
    void sessionService.close().then(() => process.exit(0));
    return;
  }
  void (async () => {
    const runner = runnerFor(command);
    const before = toolRuns; // the tests send a worker one command at a time
    const ownSessions = command.scenario === 'tally' || command.scenario === 'book';
    const results = await Promise.all(
      Array.from({ length: command.runs ?? 1 }, (_, i) =>
        runOnce(runner, ownSessions ? `${command.sessionId}-${process.pid}-${i}` : command.sessionId, command.runs ? { role: 'user', parts: [{ text: `${process.pid} run ${i}` }] } : command.message),
      ),
    );
    process.send!({ id: command.id, results, toolRuns: toolRuns - before });
  })();
});

// Ready once the schema is there (the parent migrated it) and a connection works.
void sessionService.migrate().then(() => process.send!({ ready: true }));
