import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ClaimOutcome, ClaimSessionRequest, GetSessionRequest, ListSessionsRequest, SessionData, SessionKey, SessionService } from '@toolsmith/core';
import { Event, Session, ToolsmithError } from '@toolsmith/core';
import { RunSupersededError } from './run-superseded-error';
import { inWorkflow } from './in-workflow';
import { type RecordedError, recordError, replayedError } from './recorded-error';
import { DURABLE_WAIT_NAMES } from './durable-waits';
import { DURABLE_STEP_NAMES } from './step-names';

/** What the append step records: the stored event and the session it left. */
interface RecordedAppend {
  event?: ReturnType<Event['toJSON']>;
  state?: Record<string, unknown>;
  lastSequence?: number;
  error?: RecordedError;
}

/**
 * A session store whose reads and writes inside a durable run are DBOS steps: the session a run
 * starts from and every event it stores are recorded, so a replay after a crash sees the session the
 * run saw and stores nothing twice. Claims pass straight through (a recovered run claims the session
 * again), as does everything outside a workflow.
 */
export class DurableSessionService implements SessionService {
  /**
   * @param onStored - called with each event a workflow stores (replayed ones too) and the session it is now in, in the workflow: how
   * the run learns that the answer it was handed was accepted (the runner stored it) rather than refused.
   */
  constructor(
    private readonly inner: SessionService,
    private readonly onStored?: (event: Event, session: Session) => void,
  ) {}

  async createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session> {
    if (!inWorkflow()) return this.inner.createSession(request);
    let live: Session | undefined;
    let thrown: unknown;
    const recorded = await DBOS.runStep(
      async (): Promise<{ session?: SessionData; error?: RecordedError }> => {
        try {
          live = await this.inner.createSession(request);
          return { session: live.toJSON() };
        } catch (error) {
          thrown = error;
          return { error: recordError(error) };
        }
      },
      { name: DURABLE_STEP_NAMES.createSession },
    );
    if (recorded.error) throw thrown ?? replayedError(recorded.error);
    return live ?? Session.fromJSON(recorded.session!);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    if (!inWorkflow()) return this.inner.getSession(request);
    let live: Session | undefined;
    const recorded = await DBOS.runStep(
      async (): Promise<{ session: SessionData | null }> => {
        live = await this.inner.getSession(request);
        return { session: live ? live.toJSON() : null };
      },
      { name: DURABLE_STEP_NAMES.loadSession },
    );
    if (live) return live;
    return recorded.session ? Session.fromJSON(recorded.session) : undefined;
  }

  listSessions(request: ListSessionsRequest): Promise<Session[]> {
    return this.inner.listSessions(request);
  }

  async deleteSession(request: SessionKey): Promise<void> {
    if (!inWorkflow()) return this.inner.deleteSession(request);
    await DBOS.runStep(() => this.inner.deleteSession(request), { name: DURABLE_STEP_NAMES.deleteSession });
  }

  /**
   * Stores the event as a step. A replay does not store it again: it applies the recorded outcome to
   * `session`. A step re-run because its process died after the store took the event but before DBOS
   * recorded the step finds the event stored (same author and content, right after the session's last
   * sequence) and takes it as stored.
   */
  async appendEvent(session: Session, event: Event): Promise<Event> {
    if (!inWorkflow() || event.partial) return this.inner.appendEvent(session, event);
    // A pause names its workflow, so that an answer given on any worker finds the run waiting for it.
    if (event.longRunningToolIds?.length) event.customMetadata = { ...event.customMetadata, [DURABLE_WAIT_NAMES.workflowIdMetadata]: DBOS.workflowID };
    let stored: Event | undefined;
    let thrown: unknown;
    const recorded = await DBOS.runStep(
      async (): Promise<RecordedAppend> => {
        try {
          stored = await this.inner.appendEvent(session, event);
        } catch (error) {
          const current = await this.inner.getSession({ appName: session.appName, userId: session.userId, sessionId: session.id });
          stored = alreadyStored(session, event, current);
          if (!stored) {
            // Another run stored events after this one's last (a newer message, while this run was cut off):
            // this run ends; the session catches up with the store, so that its error event is stored after them.
            const newer = newerRunsEvents(error, session, event, current);
            if (newer) {
              thrown = new RunSupersededError(session.id, [...new Set(newer.filter((other) => other.invocationId !== event.invocationId).map((other) => other.invocationId))]);
              session.events.push(...newer);
              session.state = current!.state;
              session.lastSequence = current!.lastSequence;
              return { error: recordError(thrown), state: session.state, lastSequence: session.lastSequence };
            }
            thrown = error;
            return { error: recordError(error) };
          }
        }
        return { event: stored.toJSON(), state: session.state, lastSequence: session.lastSequence };
      },
      { name: DURABLE_STEP_NAMES.appendEvent },
    );
    if (recorded.error) {
      if (!thrown && recorded.lastSequence !== undefined) {
        // A replayed RUN_SUPERSEDED: the session caught up with the store then.
        session.state = recorded.state!;
        session.lastSequence = recorded.lastSequence;
      }
      throw thrown ?? replayedError(recorded.error);
    }
    if (stored) {
      this.onStored?.(stored, session);
      return stored;
    }
    // Replayed: the store holds the event already; the session catches up with what it recorded. The
    // runner yields its own `event`, made again by this execution (new ids, e.g. a confirmation
    // request's): it becomes the recorded one, so what the run yields is what the store holds.
    Object.assign(event, Event.fromJSON({ ...recorded.event!, invocationId: event.invocationId }));
    session.events.push(event);
    session.state = recorded.state!;
    session.lastSequence = recorded.lastSequence!;
    this.onStored?.(event, session);
    return event;
  }

  claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome> {
    // In a workflow the session a run starts from must be the recorded `getSession` step (a replay
    // reads the recording, not the store): the claim never loads it there.
    return this.inner.claimSession(request.load && inWorkflow() ? { ...request, load: false } : request);
  }

  renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean> {
    return this.inner.renewClaim(key, fence, leaseMs);
  }

  releaseClaim(key: SessionKey, fence: number): Promise<void> {
    return this.inner.releaseClaim(key, fence);
  }
}

/** The stored copy of `event` when `current` (the store's session) holds it right after `session.lastSequence` (then `session` is brought up to date). */
function alreadyStored(session: Session, event: Event, current: Session | undefined): Event | undefined {
  if (!current || current.lastSequence !== session.lastSequence + 1) return undefined;
  const last = current.events.at(-1);
  if (!last || last.author !== event.author || JSON.stringify(last.content) !== JSON.stringify(event.content)) return undefined;
  session.events.push(last);
  session.state = current.state;
  session.lastSequence = current.lastSequence;
  return last;
}

/**
 * The events `current` (the store's session) holds after `session`'s last, when the store refused `event` as
 * stale (`STALE_SESSION`) and some of them are another run's (a newer message's); else `undefined`.
 */
function newerRunsEvents(error: unknown, session: Session, event: Event, current: Session | undefined): Event[] | undefined {
  if (!current || !ToolsmithError.isInstance(error) || error.code !== 'STALE_SESSION') return undefined;
  const last = session.events.at(-1);
  const from = last === undefined ? 0 : current.events.findIndex((stored) => stored.id === last.id) + 1;
  if (last !== undefined && from === 0) return undefined; // not the session this run saw (deleted and created again)
  const newer = current.events.slice(from);
  return newer.some((stored) => stored.invocationId !== event.invocationId) ? newer : undefined;
}
