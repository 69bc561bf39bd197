import { LlmAgent } from '../agents/llm-agent';
import type { BaseAgent } from '../agents/base-agent';
import { type ConfirmationRequest, confirmationRequests } from '../confirmation/confirmation-requests';
import { type CredentialRequest, credentialRequests } from '../confirmation/credential-requests';
import { type PendingLongRunning, findPendingCalls } from '../confirmation/pending-calls';
import type { Event } from '../events/event';

/** The structured answer type of an agent: `TOutput` of an `LlmAgent<TOutput>`, else `unknown`. */
export type AgentOutput<TAgent extends BaseAgent> = TAgent extends LlmAgent<infer TOutput> ? TOutput : unknown;

/** What a run made and left unanswered: the client answers these in a later message. */
export interface AskPending {
  /** Confirmation requests of the run, in order; answer each with `confirmationResponse(request, answer)`. */
  confirmations: ConfirmationRequest[];
  /** Credential requests of the run, in order; answer each with `credentialResponse(request, answer)`. */
  credentials: CredentialRequest[];
  /** Long-running calls the run started whose final response has not arrived; send it with `longRunningResponse`. */
  longRunning: PendingLongRunning[];
}

/** What {@link Runner.ask} resolves to: one run's events and what they came to. */
export interface AskResult<TOutput = unknown> {
  /** The answer's text: the last event's `text()` when it is a final response and not an error; else `''`. */
  text: string;
  /**
   * The root agent's validated structured answer (`agent.outputOf` of the last event), typed by its
   * `outputSchema`; `undefined` when the run ended otherwise (another agent answered: read `events` with its `outputOf`).
   */
  output: TOutput | undefined;
  /** Requests the run made that the client must answer (each list empty when the run did not pause). */
  pending: AskPending;
  /**
   * The error the run ended on (its last event's `errorCode`, `errorMessage` and, when it has any,
   * `errorDetails`); absent when it did not end on one.
   */
  error?: { code: string; message: string; details?: unknown };
  /** Every event the run yielded, as `runner.run` yields them (never partial ones). */
  events: Event[];
}

/** Reads what one run's events came to. */
export function askResult<TOutput>(root: BaseAgent, events: Event[]): AskResult<TOutput> {
  const last = events.at(-1);
  const error =
    last?.errorCode !== undefined
      ? { code: last.errorCode, message: last.errorMessage ?? '', ...(last.errorDetails !== undefined ? { details: last.errorDetails } : {}) }
      : undefined;
  const text = last && !error && last.isFinalResponse() ? last.text() : '';
  const output = last && root instanceof LlmAgent ? (root.outputOf(last) as TOutput | undefined) : undefined;
  const pending: AskPending = {
    confirmations: events.flatMap((event) => confirmationRequests(event)),
    credentials: events.flatMap((event) => credentialRequests(event)),
    longRunning: [...findPendingCalls(events).longRunning.values()],
  };
  return { text, output, pending, ...(error ? { error } : {}), events };
}
