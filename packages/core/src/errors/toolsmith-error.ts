const MARKER = Symbol.for('toolsmith.error');

/** Options shared by every Toolsmith error. */
export interface ToolsmithErrorOptions {
  /** The underlying error, kept for logs and events; never shown to the model. */
  cause?: unknown;
  /** Structured details (for example validation problems) that may be shown to the model. */
  details?: unknown;
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

  constructor(
    /** Stable, machine-readable identifier such as `INVALID_ARGUMENTS`. */
    readonly code: C,
    message: string,
    options: ToolsmithErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options.details !== undefined) this.details = options.details;
  }

  /** True when `value` is a Toolsmith error (of any copy of this package). */
  static isInstance(value: unknown): value is ToolsmithError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** A plain, JSON-safe view (no stack, no cause) for events and sessions. */
  toJSON(): { name: string; code: C; message: string; details?: unknown } {
    return this.details === undefined
      ? { name: this.name, code: this.code, message: this.message }
      : { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
