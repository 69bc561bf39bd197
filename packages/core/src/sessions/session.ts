import { Event, type EventData } from '../events/event';

/** The plain-JSON form of a {@link Session}. */
export interface SessionData {
  /** The session's id, unique among the sessions of its app and user. */
  id: string;
  /** The app the session belongs to (the runner's `appName`). */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** Session keys plus the `app:` and `user:` keys visible to it; never `temp:` keys. */
  state: Record<string, unknown>;
  /** The session's events in their JSON form, oldest first. */
  events: EventData[];
  /** Milliseconds since the epoch of the last appended event. */
  lastUpdateTime: number;
  /** Sequence number of the last stored event (0 for none); absent in data written before it existed. */
  lastSequence?: number;
}

/**
 * One conversation of one user with an app: its events and its state. Returned by a
 * {@link SessionService}; holds only plain data, so `JSON.parse(JSON.stringify(session))` passed to
 * {@link Session.fromJSON} gives an equal session.
 */
export class Session {
  // `declare`: the constructor assigns every field itself. A class field is first defined as `undefined`,
  // which made V8 hold `lastUpdateTime` as any value rather than as a number: each append's time was then
  // a new heap number (a field V8 holds as a number is written in place).
  /** The session's id, unique among the sessions of its app and user. */
  declare readonly id: string;
  /** The app the session belongs to; its `app:` state is shared by all the app's sessions. */
  declare readonly appName: string;
  /** The user the session belongs to; its `user:` state is shared by all the user's sessions. */
  declare readonly userId: string;
  /** Session keys plus the `app:` and `user:` keys visible to it; never `temp:` keys. Updated in place by `appendEvent`. */
  declare state: Record<string, unknown>;
  /** The stored events, oldest first (only some when `getSession` asked for part of them); `appendEvent` adds to it. */
  declare events: Event[];
  /** Milliseconds since the epoch of the last appended event (of the creation when there is none; 0 when unknown). */
  declare lastUpdateTime: number;
  /**
   * Sequence number of the last stored event (0 when none). An append expects the store to be at this
   * number and fails with `STALE_SESSION` when another writer moved it on; see {@link SessionService}.
   */
  declare lastSequence: number;
  /**
   * The fencing number of the claim this copy's appends carry (see {@link SessionService.claimSession}):
   * set by the runner after it claimed the session. Not part of the JSON form.
   */
  declare fence?: number;

  constructor(data: {
    id: string;
    appName: string;
    userId: string;
    state?: Record<string, unknown>;
    events?: Event[];
    lastUpdateTime?: number;
    lastSequence?: number;
  }) {
    this.id = data.id;
    this.appName = data.appName;
    this.userId = data.userId;
    this.state = data.state ?? {};
    this.events = data.events ?? [];
    this.lastUpdateTime = data.lastUpdateTime ?? 0;
    this.lastSequence = data.lastSequence ?? this.events.length;
    this.fence = undefined;
  }

  /** Restores a session from its JSON form. */
  static fromJSON(data: SessionData): Session {
    return new Session({ ...data, state: { ...data.state }, events: data.events.map((e) => Event.fromJSON(e)) });
  }

  /** The plain-JSON form. */
  toJSON(): SessionData {
    return {
      id: this.id,
      appName: this.appName,
      userId: this.userId,
      state: this.state,
      events: this.events.map((e) => e.toJSON()),
      lastUpdateTime: this.lastUpdateTime,
      lastSequence: this.lastSequence,
    };
  }
}
