import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Content, Event } from '@toolsmith/core';
import type { ConfirmationAnswerRequest, DevAgentHost, LongRunningUpdateRequest, WirePending, WirePendingConfirmation } from '@toolsmith/devtools';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { EXIT_OK } from '../exit-codes';
import { thrownMessage } from '@toolsmith/core';

/** Usage text of `toolsmith run`. */
export const RUN_USAGE = `Usage: toolsmith run <module> [--session <id>] [--json] [--memory] [--user <id>] [--manifest <file>]

Chats with the agent a module exports, in the terminal: each line you type is a message; calls,
results, state changes and answers are printed as they happen. A call that needs approval asks for
a decision:
  y [payload]                   approve (an optional JSON payload for the tool: y {"approver":"Ada"})
  n [message]                   reject; the model is told the message (an empty answer rejects too)
  e <json arguments>            approve with edited arguments, checked against the tool's schema
                                (not offered for a request with editable: false)
  r <answer>                    respond instead: the answer (JSON or text) is the call's result
  a <session|user|app> [min]    approve and always allow the tool there (for min minutes)
  /grants                       list the remembered grants
  /revoke <grant id>            revoke one
A long-running call waits for
  /update <call id> <json>      its final result
  /progress <call id> <json>    an intermediate update
  /ask <call id> <json> <question json>
                                an intermediate update asking the person a question,
                                {"hint":"…","payloadSchema":{…}}; the answer runs the tool again
A question asks for its answer: the payload as JSON (checked against the question's form),
  n [message] to reject, r <answer> to respond instead.
Every message (a line, an answer, an update) gets an id; /retry sends the last one again with the
same id: if the session already holds it, nothing runs again and you see what it produced.
Ctrl-D (end of input) quits. Sessions are kept in .toolsmith/sessions when @toolsmith/postgres is
installed, else in memory.

Options:
  --session <id>     continue this stored session (created when it does not exist)
  --json             print each event as a JSON line on stdout (prompts go to stderr), for scripts
  --memory           keep sessions in memory even when @toolsmith/postgres is installed
  --user <id>        the user the session belongs to (default dev-user)
  --manifest <file>  the build-time manifest to scan with (default: found from the module's directory)
`;

/** Options of `toolsmith run`, parsed from the command line. */
export interface RunCommandOptions {
  module: string;
  session?: string;
  json: boolean;
  memory: boolean;
  user?: string;
  manifest?: string;
}

/** Parses `toolsmith run`'s arguments; throws {@link CliUsageError}. */
export function parseRunArgs(argv: readonly string[]): RunCommandOptions {
  const rest = [...argv];
  const value = (flag: string): string | undefined => {
    const at = rest.indexOf(flag);
    if (at < 0) return undefined;
    const found = rest[at + 1];
    if (found === undefined || found.startsWith('--')) throw new CliUsageError(`${flag} needs a value.\n\n${RUN_USAGE}`);
    rest.splice(at, 2);
    return found;
  };
  const flag = (name: string): boolean => {
    const at = rest.indexOf(name);
    if (at >= 0) rest.splice(at, 1);
    return at >= 0;
  };
  const session = value('--session');
  const user = value('--user');
  const manifest = value('--manifest');
  const json = flag('--json');
  const memory = flag('--memory');
  const unknown = rest.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliUsageError(`Unknown option ${unknown} for toolsmith run.\n\n${RUN_USAGE}`);
  if (rest.length !== 1) throw new CliUsageError(`toolsmith run needs exactly one module path.\n\n${RUN_USAGE}`);
  return { module: rest[0], json, memory, ...(session ? { session } : {}), ...(user ? { user } : {}), ...(manifest ? { manifest } : {}) };
}

/**
 * The terminal chat: reads messages (and answers to approvals) line by line from `input` until it
 * ends, runs the agent on each and prints its events. Resolves with exit code 0 at the end of input.
 */
export async function runRunCommand(options: RunCommandOptions, io: CliIo, input: NodeJS.ReadableStream): Promise<number> {
  const devtools = require('@toolsmith/devtools') as typeof import('@toolsmith/devtools');
  const host = await devtools.DevAgentHost.open({
    module: options.module,
    cwd: io.cwd,
    store: options.memory ? 'memory' : 'auto',
    ...(options.user ? { userId: options.user } : {}),
    ...(options.manifest ? { manifest: options.manifest } : {}),
  });
  const lines = createInterface({ input, terminal: false })[Symbol.asyncIterator]();
  // In --json mode stdout carries only events; people-facing text goes to stderr.
  const say = (text: string) => (options.json ? io.stderr : io.stdout).write(`${text}\n`);
  const ask = async (prompt: string): Promise<string | undefined> => {
    (options.json ? io.stderr : io.stdout).write(prompt);
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };
  try {
    const sessionId = await openSession(host, options.session, say);
    const info = host.info();
    say(`Toolsmith run — ${info.appName} (agent ${info.agentName}${info.model ? `, model ${info.model}` : ''}), session ${sessionId}`);
    say(`Sessions: ${info.store.description}. Type a message; end of input (Ctrl-D) quits.`);
    const chat = new TerminalChat(host, sessionId, options.json, io, say, ask, devtools.formatEvent);
    if (!(await chat.settlePending())) return EXIT_OK;
    for (;;) {
      const line = await ask(options.json ? '' : '> ');
      if (line === undefined) break;
      if (!(await chat.handle(line.trim()))) break;
    }
    return EXIT_OK;
  } finally {
    await host.close();
  }
}

/** Uses the stored session `id` (or a new one), saying whether it resumes one. */
async function openSession(host: DevAgentHost, id: string | undefined, say: (text: string) => void): Promise<string> {
  if (id) {
    try {
      const session = await host.getSession(id);
      say(`Resuming session ${id}: ${session.events.length} stored events.`);
      return id;
    } catch {
      // Not stored yet: start it under the id asked for.
    }
  }
  return (await host.createSession(id)).id;
}

/** One terminal conversation: runs, printing, and the questions a pause asks. */
class TerminalChat {
  constructor(
    private readonly host: DevAgentHost,
    private readonly sessionId: string,
    private readonly json: boolean,
    private readonly io: CliIo,
    private readonly say: (text: string) => void,
    private readonly ask: (prompt: string) => Promise<string | undefined>,
    private readonly format: (event: Event) => string[],
  ) {}

  /** The last message sent and its id, for `/retry`. */
  private last?: { message: Content; messageId: string };

  /** Handles one typed line: a message, `/update` / `/progress` for a long-running call, or `/retry`. False when input ended mid-question. */
  async handle(line: string): Promise<boolean> {
    if (line === '') return true;
    if (line === '/retry') {
      if (!this.last) {
        this.say('Nothing was sent yet: there is nothing to send again.');
        return true;
      }
      if (!this.json) this.say(`  ↻ sending message ${this.last.messageId} again`);
      await this.run(this.last.message, this.last.messageId);
      return this.settlePending();
    }
    if (line === '/grants' || line.startsWith('/revoke')) {
      await this.grants(line);
      return true;
    }
    const command = /^\/(update|progress|ask)\s+(\S+)\s+(.+)$/.exec(line);
    if (command) {
      const [, kind, callId, rest] = command;
      const [response, question] = kind === 'ask' ? (splitJsonPair(rest) ?? []) : [parseJson(rest)];
      if (!isJsonObject(response) || (kind === 'ask' && !isJsonObject(question))) {
        this.say(
          kind === 'ask'
            ? `/ask takes the update and the question, two JSON objects, e.g. /ask ${callId} {"status":"blocked"} {"hint":"Keep the locked rows?","payloadSchema":{"type":"object","properties":{"keep":{"type":"boolean"}},"required":["keep"]}}`
            : `The ${kind} must be a JSON object, e.g. /${kind} ${callId} {"status":"done"}`,
        );
        return true;
      }
      if (!this.json) this.say(`  ↻ ${kind === 'ask' ? 'progress' : kind} for ${callId}: ${JSON.stringify(response)}${kind === 'ask' ? `, asking ${JSON.stringify(question)}` : ''}`);
      try {
        const message = await this.host.longRunningUpdate(this.sessionId, callId, {
          response,
          willContinue: kind !== 'update',
          ...(kind === 'ask' ? { question: question as LongRunningUpdateRequest['question'] } : {}),
        });
        await this.run(message);
      } catch (error) {
        this.say(`! ${thrownMessage(error)}`);
        return true;
      }
    } else {
      if (!this.json) this.say(`User: ${line}`);
      await this.run({ role: 'user', parts: [{ text: line }] });
    }
    return this.settlePending();
  }

  /** Asks about every pending confirmation and sends the answers; says which long-running calls wait. False when input ended. */
  async settlePending(): Promise<boolean> {
    for (;;) {
      const pending = (await this.host.getSession(this.sessionId)).pending;
      this.mentionLongRunning(pending);
      const [request] = pending.confirmations;
      if (!request) return true;
      const answer = request.update ? await this.answerQuestion(request) : await this.decide(request);
      if (answer === undefined) return false;
      try {
        // Said only once the runner took the answer: a refused one (an invalid edit…) is not "approved".
        await this.run(await this.host.confirmationAnswer(this.sessionId, request.requestId, answer), undefined, `  ${describeAnswer(answer, request.update !== undefined)}`);
      } catch (error) {
        // An answer the runner would refuse (a payload outside the form, an always-allow without a grant
        // service…): nothing was sent; say why and ask again.
        this.say(`! ${refusalText(error)}`);
      }
    }
  }

  /** Asks for a decision on one request until the reply is one; undefined when input ended. */
  private async decide(request: WirePendingConfirmation): Promise<ConfirmationAnswerRequest | undefined> {
    // A request an agent tool relays is about its inner agent's call: that is what the person decides on.
    const call = request.relayed?.call ?? request.originalFunctionCall;
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const inside = request.relayed ? ` (asked by ${request.relayed.agent}, inside ${request.originalFunctionCall.name})` : '';
    // A tool that asked itself (ctx.requestConfirmation) is never answered by a grant: no "always allow" then.
    const grantable = request.askedBy !== 'tool';
    // A request about the call as it was made (`editable: false`) takes no edit: `e` is not offered. Typed
    // anyway, it goes to the runner, whose refusal is printed, and the question is asked again.
    const editable = request.editable !== false;
    const choices = editable ? 'y, n, e or r' : 'y, n or r';
    for (;;) {
      const reply = await this.ask(`  Approve ${call.name}(${args})${inside}?${request.hint ? ` (${request.hint})` : ''} [y/N${editable ? ', e <args>' : ''}, r <answer>${grantable ? ', a <scope> [min]' : ''}] `);
      if (reply === undefined) return undefined;
      const answer = readDecision(reply, { editable, grantable });
      if (typeof answer !== 'string' && (grantable || !answer.remember)) return answer;
      this.say(`  ${typeof answer === 'string' ? answer : `Always allow does not apply here: ${call.name} asked itself, and asks every time. Answer ${choices}.`}`);
    }
  }

  /**
   * Asks a long-running call's question (an update's, see docs/long-running.md) until the reply is an answer:
   * the payload as JSON (the runner checks it against the question's form), `n [message]` or `r <answer>`.
   * Undefined when input ended.
   */
  private async answerQuestion(request: WirePendingConfirmation): Promise<ConfirmationAnswerRequest | undefined> {
    const call = request.originalFunctionCall;
    this.say(`  ? ${call.name} (call ${call.id}) asks: ${request.hint ?? 'Please answer.'}`);
    if (request.payloadSchema) this.say(`    form: ${JSON.stringify(request.payloadSchema)}`);
    for (;;) {
      const reply = await this.ask(`  Answer with the payload as JSON${request.payloadSchema ? ' (it must fill in the form)' : ''} [<json>, n [message], r <answer>] `);
      if (reply === undefined) return undefined;
      const answer = readQuestionAnswer(reply);
      if (typeof answer !== 'string') return answer;
      this.say(`  ${answer}`);
    }
  }

  /** `/grants` lists the app's remembered grants; `/revoke <id>` revokes one. */
  private async grants(line: string): Promise<void> {
    try {
      if (line === '/grants') {
        const grants = await this.host.listGrants();
        if (grants.length === 0) this.say('  No grants: every call that needs approval asks.');
        for (const grant of grants) {
          const who = grant.scope === 'app' ? 'the whole app' : grant.scope === 'user' ? `user ${grant.userId}` : `session ${grant.sessionId}`;
          const until = grant.expiresAt === undefined ? '' : `, until ${new Date(grant.expiresAt).toISOString()}`;
          this.say(`  ${grant.id}: always allow ${grant.toolName} for ${who}${until}`);
        }
        return;
      }
      const id = /^\/revoke\s+(\S+)$/.exec(line)?.[1];
      if (!id) return this.say('  Usage: /revoke <grant id> (see /grants)');
      await this.host.revokeGrant(id);
      this.say(`  revoked ${id}: the next call it covered asks again`);
    } catch (error) {
      this.say(`! ${thrownMessage(error)}`);
    }
  }

  private mentionLongRunning(pending: WirePending): void {
    for (const call of pending.longRunning) {
      this.say(`  … ${call.name} is running (call ${call.id}): send its result with /update ${call.id} {"status":"done"}`);
    }
  }

  /**
   * Runs one message under `messageId` (a new id unless it is sent again): the runner stores and runs a
   * message id once, so sending it again after a failure never stores or runs it twice.
   */
  private async run(message: Content, messageId: string = randomUUID(), accepted?: string): Promise<void> {
    this.last = { message, messageId };
    let unsaid = this.json ? undefined : accepted;
    for await (const event of this.host.run(this.sessionId, message, undefined, messageId)) {
      if (event.partial) continue; // the complete event follows with the whole text
      if (unsaid !== undefined) {
        // A refused message is one error event with no content; anything else means the answer was taken.
        if (!(event.errorCode !== undefined && event.content === undefined)) this.say(unsaid);
        unsaid = undefined;
      }
      if (this.json) this.io.stdout.write(`${JSON.stringify(event)}\n`);
      else for (const line of this.format(event)) this.say(line);
    }
  }
}

/**
 * Reads a reply to an approval question: `y [payload]`, `n [message]` (or nothing), `e <json args>`,
 * `r <answer>`, `a <session|user|app> [minutes]`. Returns the answer, or what is wrong with the reply;
 * `editable: false` (a request that takes no edit) leaves `e` out of the choices that text offers, and
 * `grantable: false` (a request the tool made itself) leaves out `a`.
 */
export function readDecision(reply: string, { editable = true, grantable = true }: { editable?: boolean; grantable?: boolean } = {}): ConfirmationAnswerRequest | string {
  const [, word = '', rest = ''] = /^\s*(\S*)\s*([\s\S]*?)\s*$/.exec(reply)!;
  const kind = word.toLowerCase();
  if (kind === '' || kind === 'n' || kind === 'no') return rest === '' ? { decision: 'reject' } : { decision: 'reject', message: rest };
  if (kind === 'y' || kind === 'yes') return rest === '' ? { decision: 'approve' } : { decision: 'approve', payload: parseJson(rest) };
  if (kind === 'e' || kind === 'edit') {
    const args = parseJson(rest);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'Edited arguments must be a JSON object, e.g. e {"orderId":"A-1002","amount":100}';
    return { decision: 'edit', args: args as Record<string, unknown> };
  }
  if (kind === 'r' || kind === 'respond') return rest === '' ? 'Give the answer that stands in for the result, e.g. r {"status":"refunded by phone"}' : { decision: 'respond', result: parseJson(rest) };
  if (kind === 'a' || kind === 'always') {
    const [scope, minutes, ...more] = rest.split(/\s+/);
    if ((scope !== 'session' && scope !== 'user' && scope !== 'app') || more.length > 0 || (minutes !== undefined && !(Number(minutes) > 0))) {
      return 'Always allow for whom: session, user or app, then optionally minutes until it expires (a session 60)';
    }
    // Fractions of a minute are fine: the expiry is rounded to a whole ms, as a grant's must be.
    const expiresAt = minutes === undefined ? undefined : Date.now() + Math.round(Number(minutes) * 60_000);
    if (expiresAt !== undefined && !Number.isSafeInteger(expiresAt)) return `${minutes} minutes is too far away: give at most ${Math.floor((Number.MAX_SAFE_INTEGER - Date.now()) / 60_000)} minutes, or none for no expiry`;
    return { decision: 'approve', remember: { scope, ...(expiresAt === undefined ? {} : { expiresAt }) } };
  }
  const choices = ['y (approve)', 'n [message] (reject)', ...(editable ? ['e <json arguments> (edit)'] : []), 'r <answer> (respond instead)', ...(grantable ? ['a <session|user|app> [minutes] (always allow)'] : [])];
  return `Answer ${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}.`;
}

/**
 * Reads a reply to a long-running call's question: `n [message]` rejects, `r <answer>` responds instead,
 * `y [payload]` approves; anything else is the payload (JSON, or plain text). Returns the answer, or what
 * is wrong with the reply (an empty one; an edit or an always-allow, which a question does not take).
 */
export function readQuestionAnswer(reply: string): ConfirmationAnswerRequest | string {
  const text = reply.trim();
  const usage = 'Answer with the payload (JSON), n [message] to reject, or r <answer> to respond instead.';
  if (text === '') return usage;
  const word = /^(\S+)/.exec(text)![1].toLowerCase();
  if (['e', 'edit', 'a', 'always'].includes(word)) return `The call already ran, so its arguments cannot be edited, and a question is never always allowed. ${usage}`;
  if (['y', 'yes', 'n', 'no', 'r', 'respond'].includes(word)) return readDecision(text);
  return { decision: 'approve', payload: parseJson(text) };
}

/** The line that says which decision was sent (`question`: an answer to a long-running call's question). */
function describeAnswer(answer: ConfirmationAnswerRequest, question = false): string {
  const payload = answer.payload === undefined ? '' : ` with ${JSON.stringify(answer.payload)}`;
  if (question && answer.decision === 'approve') return `✔ answered${payload}`;
  switch (answer.decision) {
    case 'edit':
      return `✎ approved with edited arguments ${JSON.stringify(answer.args)}`;
    case 'reject':
      return `✘ denied${answer.message === undefined ? '' : `: "${answer.message}"`}`;
    case 'respond':
      return `↩ answered instead: ${JSON.stringify(answer.result)}`;
    default: {
      const remember = answer.remember;
      if (!remember) return `✔ approved${payload}`;
      const until = remember.expiresAt === undefined ? '' : ` until ${new Date(remember.expiresAt).toISOString()}`;
      return `✔ approved, and always allowed for ${remember.scope === 'app' ? 'the whole app' : `this ${remember.scope}`}${until}`;
    }
  }
}

/** `CODE: message` for a typed error (the runner's refusals), else the message. */
function refusalText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Two JSON values written one after the other (`{…} {…}`), or undefined when the text is not that. */
function splitJsonPair(text: string): [unknown, unknown] | undefined {
  for (let at = text.indexOf(' '); at > 0; at = text.indexOf(' ', at + 1)) {
    try {
      return [JSON.parse(text.slice(0, at)), JSON.parse(text.slice(at))];
    } catch {
      // not split here: try the next space
    }
  }
  return undefined;
}

/** JSON when the text parses, else the text itself (a payload may be a plain word). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.trim();
  }
}
