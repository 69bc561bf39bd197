import { ToolsmithError } from './toolsmith-error';

/** Codes of the errors a {@link SessionService} reports. */
export type SessionErrorCode = 'STALE_SESSION' | 'SESSION_EXISTS' | 'SESSION_NOT_FOUND' | 'SESSION_BUSY' | 'INVALID_SESSION_REQUEST' | 'SESSION_CORRUPT';

/**
 * An append was refused because the stored session moved on: the writer expected the session's last
 * event to have sequence `expectedSequence`, but the store holds `actualSequence`. Another writer
 * appended in between (another process, or a second copy of the session object). Nothing was stored;
 * the writer must not reload and continue silently, because it decided on a history that is gone.
 */
export class StaleSessionError extends ToolsmithError {
  constructor(
    /** The session whose append was refused. */
    readonly sessionId: string,
    /** The sequence the writer expected the session's last event to have (its `session.lastSequence`). */
    readonly expectedSequence: number,
    /** The sequence of the session's last stored event: another writer appended up to it. */
    readonly actualSequence: number,
  ) {
    super(
      'STALE_SESSION',
      `Session "${sessionId}" changed while this writer held it: it expected sequence ${expectedSequence}, ` +
        `the store is at ${actualSequence}. Nothing was stored; run again on the current session.`,
      { details: { sessionId, expectedSequence, actualSequence } },
    );
  }
}

/** `createSession` was asked for an id the user already has. */
export class SessionExistsError extends ToolsmithError {
  constructor(
    /** The id asked for, which the user already has a session with. */
    readonly sessionId: string,
    /** The user who already has a session with that id. */
    readonly userId: string,
  ) {
    super('SESSION_EXISTS', `Session "${sessionId}" already exists for user "${userId}".`, { details: { sessionId, userId } });
  }
}

/** An append named a session the store does not hold (never created, or deleted). */
export class SessionNotFoundError extends ToolsmithError {
  constructor(
    /** The id of the session that was not found. */
    readonly sessionId: string,
    /** The user it was looked up for. */
    readonly userId: string,
    /** The app it was looked up in. */
    readonly appName: string,
  ) {
    super('SESSION_NOT_FOUND', `Session "${sessionId}" of user "${userId}" does not exist in app "${appName}".`, {
      details: { sessionId, userId, appName },
    });
  }
}

/**
 * Another run holds the session (its claim, see `SessionService.claimSession`): a run that would not
 * wait (or waited as long as it may) is refused before it stored anything, and an append carrying no
 * claim, or an older claim's fencing number, is refused and stores nothing.
 */
export class SessionBusyError extends ToolsmithError {
  constructor(
    /** The session another run holds. */
    readonly sessionId: string,
    /** The holder of the claim (the runner names its invocation id), when the store said. */
    readonly holder: string | undefined,
    /** When that claim lapses unless renewed (ms since the epoch), when the store said. */
    readonly expiresAt: number | undefined,
  ) {
    super(
      'SESSION_BUSY',
      `Session "${sessionId}" is held by another run${holder === undefined ? '' : ` (${holder})`}. Nothing was stored; send the message again once that run has ended.`,
      { details: { sessionId, holder, expiresAt } },
    );
  }
}

/**
 * A session store refused a request that no store could answer the same: an id (`appName`, `userId`,
 * `sessionId`, `listSessions`' `after`) that is not a string or holds a control character or a lone
 * surrogate (PostgreSQL refuses NUL and stores a lone surrogate as U+FFFD, so two ids would name one
 * session), or a paging option, lease or fencing number that is not a number the request takes. Every store
 * checks alike, before it reads or stores anything; nothing was read or stored. `problem` names the field
 * and what is wrong with it (never the value).
 */
export class InvalidSessionRequestError extends ToolsmithError {
  constructor(
    /** The field and what is wrong with it, e.g. `userId has a lone surrogate`. */
    readonly problem: string,
  ) {
    super('INVALID_SESSION_REQUEST', `The session store refused the request: ${problem}. Nothing was read or stored.`, { details: { problem } });
  }
}

/**
 * A stored row of the session cannot be read as what the store wrote (edited by hand, or by another
 * program): an event whose data is not an event, a state that is not an object or holds a number past the
 * largest finite one. The store reads nothing of the session rather than invent an event or state keys;
 * `row` names the row (`event 3`, `sessions.state`, `user_state`, `app_state`).
 */
export class SessionCorruptError extends ToolsmithError {
  constructor(
    /** The session whose row cannot be read. */
    readonly sessionId: string,
    /** The row: `event <sequence>`, `sessions.state`, `user_state` or `app_state`. */
    readonly row: string,
    /** What is wrong with it. */
    readonly problem: string,
  ) {
    super('SESSION_CORRUPT', `Session "${sessionId}" cannot be read: its stored ${row} is corrupt (${problem}). Nothing of it was read; repair or delete the row.`, {
      details: { sessionId, row, problem },
    });
  }
}
