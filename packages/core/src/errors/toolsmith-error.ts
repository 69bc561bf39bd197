const MARKER = Symbol.for('toolsmith.error');

/**
 * A member of an error's `details`, as the keys from the top down: `['status']`, `['remote', 'message']`.
 * Typed by the details' type `D`: only its keys (and, below a member of unknown type, any key).
 */
export type DetailPath<D = unknown> = unknown extends D
  ? readonly string[]
  : D extends object
    ? { [K in keyof D & string]: readonly [K] | readonly [K, ...DetailPath<D[K]>] }[keyof D & string]
    : never;

/**
 * Options shared by every Toolsmith error. `D` is the type of `details`, which types `statedDetails`;
 * options of any `D` are accepted by {@link ToolsmithError}'s constructor.
 */
export interface ToolsmithErrorOptions<D = unknown> {
  /** The underlying error, kept for logs and events; never shown to the model. */
  cause?: unknown;
  /** Structured details (for example validation problems) that may be shown to the model. */
  details?: D;
  /**
   * The members of `details` the message already states (see {@link ToolsmithError.statedDetails}): the
   * error response the model reads leaves them out, so it reads nothing twice. Declare only what the
   * message says in full.
   */
  statedDetails?: ReadonlyArray<DetailPath<D>>;
}

/**
 * Base class of every error Toolsmith throws or reports. `code` is stable and meant to be branched on;
 * `message` is written for people (and, for tool-call errors, for the model).
 *
 * `C` is the package's code union (core's errors use `CoreErrorCode` codes).
 *
 * Use {@link ToolsmithError.isInstance} rather than `instanceof`: it also works when two copies of
 * `@toolsmith/core` are loaded.
 */
export class ToolsmithError<C extends string = string> extends Error {
  /** The brand {@link ToolsmithError.isInstance} checks: it works across copies of the package, unlike `instanceof`. */
  readonly [MARKER] = true;
  /** Structured details (e.g. validation problems) that may be shown to the model and are kept in `toJSON`; absent when none. */
  readonly details?: unknown;
  /**
   * The members of `details` the message states, as its class declared them ({@link ToolsmithErrorOptions.statedDetails}):
   * a tool call's error response leaves them out of the `details` the model reads. The error keeps them all
   * (`details`, `toJSON`, events, spans and logs); this is not enumerable, so the error looks as it did. Absent when none.
   */
  declare readonly statedDetails?: ReadonlyArray<readonly string[]>;

  constructor(
    /** Stable, machine-readable identifier such as `INVALID_ARGUMENTS`. */
    readonly code: C,
    message: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- options of any details type: their statedDetails were checked against it where they were written (a conditional type makes the options invariant in it)
    options: ToolsmithErrorOptions<any> = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options.details !== undefined) this.details = options.details;
    if (options.statedDetails?.length) Object.defineProperty(this, 'statedDetails', { value: options.statedDetails });
  }

  /** True when `value` is a Toolsmith error (of any copy of this package). */
  static isInstance(value: unknown): value is ToolsmithError {
    if (typeof value !== 'object' || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[MARKER] === true;
    } catch {
      // A revoked Proxy, or one whose trap throws, is no Toolsmith error (and asking must not throw).
      return false;
    }
  }

  /** A plain, JSON-safe view (no stack, no cause) for events and sessions. */
  toJSON(): { name: string; code: C; message: string; details?: unknown } {
    return this.details === undefined
      ? { name: this.name, code: this.code, message: this.message }
      : { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
