import type { Event } from '../events/event';
import type { Session } from './session';
import type { ClaimOutcome } from './session-claim';
import type { SessionKey, SessionService } from './session-service';

/**
 * What {@link SynchronousSessionWrites.claimSession} returns: a granted claim's fencing number with the
 * session read in the same step (so the outcome is itself the run's `LoadedSession`, one object), or the
 * fencing number alone when no session exists under the key (a run's first message: nothing to carry, no
 * object), without the claim's `expiresAt`, which the runner does not read (the store reads no wall clock
 * for it); or the refusal, as {@link SessionService.claimSession}'s.
 */
export type SynchronousClaimOutcome = number | { claimed: true; fence: number; session: Session } | (ClaimOutcome & { claimed: false });

/**
 * The writes a run makes, done synchronously by a store that completes them in memory (the
 * {@link InMemorySessionService}): the runner calls these instead of the service's async methods, and
 * saves an await per stored event. Each does exactly what the service's method of the same name does,
 * returning (or throwing) what that method resolves (or rejects) with (`claimSession`: with `load`, its
 * arguments one by one, less the granted claim's `expiresAt`). Internal to core.
 */
export interface SynchronousSessionWrites {
  appendEvent(session: Session, event: Event): Event;
  claimSession(appName: string, userId: string, sessionId: string, holder: string, leaseMs: number): SynchronousClaimOutcome;
  releaseClaim(key: SessionKey, fence: number): void;
  /** `createSession(key)`, the session created at `now` (milliseconds since the epoch, read by the caller). */
  createSession(key: SessionKey, now: number): Session;
}

/** The methods a run calls whose replacement turns the synchronous writes off. */
export type SynchronousWriteMethods = Pick<SessionService, 'appendEvent' | 'claimSession' | 'releaseClaim' | 'createSession' | 'getSession'>;

const registered = new WeakMap<SessionService, { writes: SynchronousSessionWrites; methods: SynchronousWriteMethods }>();
/** The service {@link synchronousWrites} was asked for last, and what it found for it (held until another is asked for). */
let lastService: SessionService | undefined;
let lastEntry: { writes: SynchronousSessionWrites; methods: SynchronousWriteMethods } | undefined;

/**
 * Registers the synchronous writes of `service`, valid while its methods are the ones of `methods`: its
 * class's own methods, captured once when its module loads (not its live prototype, which a monitoring
 * wrapper may have patched since).
 */
export function registerSynchronousWrites(service: SessionService, methods: SynchronousWriteMethods, writes: SynchronousSessionWrites): void {
  registered.set(service, { writes, methods });
  if (service === lastService) lastEntry = undefined;
}

/**
 * The synchronous writes of `service`, or `undefined` when it has none, or when one of its methods was
 * replaced: on the instance, by a subclass, or on the class's prototype (a wrapper that patches
 * `appendEvent` there sees every append, as before).
 */
export function synchronousWrites(service: SessionService): SynchronousSessionWrites | undefined {
  // A runner asks for its one service run after run: the service asked last is found without the WeakMap.
  let entry = service === lastService ? lastEntry : undefined;
  if (!entry) {
    entry = registered.get(service);
    lastService = service;
    lastEntry = entry;
  }
  if (!entry) return undefined;
  const { methods } = entry;
  const same =
    service.appendEvent === methods.appendEvent &&
    service.claimSession === methods.claimSession &&
    service.releaseClaim === methods.releaseClaim &&
    service.createSession === methods.createSession &&
    service.getSession === methods.getSession;
  return same ? entry.writes : undefined;
}
