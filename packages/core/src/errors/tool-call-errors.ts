import { invalidArgumentsMessage, listProblems, toolFailedMessage, toolFilesTooLargeMessage, toolNotFoundMessage, toolTimeoutMessage } from './messages';
import { thrownMessage } from './thrown-message';
import { pauseStackTraces, resumeStackTraces } from './stackless';
import { ToolsmithError, type ToolsmithErrorOptions } from './toolsmith-error';

/** One problem found while validating a tool's arguments. */
export interface ArgumentProblem {
  /** JSON pointer of the offending value (`""` for the arguments object itself; a missing or unknown property's own path). */
  path: string;
  /** One short line naming the path, the value received and what was expected, e.g. `priority: got "urgent", expected one of "low" | "high"`. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `minimum`, …). */
  keyword: string;
}

/** The model called a tool that is not offered in this request. Built without a stack trace (it reports the model's input; see `stack`). */
export class ToolNotFoundError extends ToolsmithError {
  constructor(
    /** The name the model called, which no offered tool has. */
    readonly toolName: string,
    /** The names of the tools offered in this request, listed in the message so the model can correct itself. */
    readonly availableTools: readonly string[],
  ) {
    const message = toolNotFoundMessage(toolName, availableTools);
    const limit = pauseStackTraces();
    super('TOOL_NOT_FOUND', message, { details: { availableTools } });
    resumeStackTraces(limit);
  }
}

/** The arguments were a string that is not a JSON object. Built without a stack trace (it reports the model's input). */
export class MalformedArgumentsError extends ToolsmithError {
  constructor(toolName: string, reason: string, options: ToolsmithErrorOptions = {}) {
    const message = `Arguments for tool "${toolName}" are not a valid JSON object: ${reason}.`;
    const limit = pauseStackTraces();
    super('MALFORMED_ARGUMENTS', message, options);
    resumeStackTraces(limit);
  }
}

/** The arguments exceed a configured size or nesting-depth limit. Built without a stack trace (it reports the model's input). */
export class ArgumentsLimitError extends ToolsmithError {
  constructor(code: 'ARGUMENTS_TOO_LARGE' | 'ARGUMENTS_TOO_DEEP', message: string) {
    const limit = pauseStackTraces();
    super(code, message);
    resumeStackTraces(limit);
  }
}

/** The arguments do not match the tool's schema; `problems` lists each one. Built without a stack trace (it reports the model's input). */
export class InvalidArgumentsError extends ToolsmithError {
  constructor(
    toolName: string,
    /** Every problem found (schema first, then class-validator's), each at its JSON pointer; also in `details.problems`. */
    readonly problems: readonly ArgumentProblem[],
  ) {
    const message = invalidArgumentsMessage(toolName, problems);
    const limit = pauseStackTraces();
    super('INVALID_ARGUMENTS', message, { details: { problems } });
    resumeStackTraces(limit);
  }
}

/** The tool itself threw. The model sees only `message`; the original error is kept as `cause`. */
export class ToolExecutionError extends ToolsmithError {
  /** @param message what the model is told (see `ToolErrorExposure`); default `Tool "x" failed: <cause's message>` (`Tool "x" failed.` when it is empty). */
  constructor(toolName: string, cause: unknown, message?: string) {
    super('TOOL_EXECUTION_FAILED', message ?? toolFailedMessage(toolName, thrownMessage(cause)), { cause });
  }
}

/**
 * A long-running tool run again with the answer to an update's question (docs/long-running.md) left
 * `ctx.toolConfirmation.update` in a form the runner does not read: it replaced the object, or set its
 * `willContinue` to something other than `true` or `false`. Its result is not taken (neither as an update
 * nor as the final response): the call ends with this error response, rather than going on as the tool
 * did not say.
 */
export class UpdateContinuationInvalidError extends ToolsmithError {
  constructor(
    toolName: string,
    /** What the tool did, e.g. `set ctx.toolConfirmation.update.willContinue to "no"`. */
    readonly problem: string,
  ) {
    super('UPDATE_CONTINUATION_INVALID', `Tool "${toolName}" ${problem}: run with the answer to an update's question, a tool ends or continues the call only by setting ctx.toolConfirmation.update.willContinue to true or false.`);
  }
}

/** A tool returned a value that JSON cannot carry faithfully (a function, a BigInt, a cycle, NaN, a Map, …). */
export class InvalidToolResultError extends ToolsmithError {
  constructor(
    toolName: string,
    /** What is wrong, e.g. `the value of "count" is NaN (JSON has no such number)`; quoted in the message. */
    readonly reason: string,
    cause?: unknown,
    /** Which part of the result is wrong: its JSON `value` (the default: "returned a result that is not JSON") or its `files` ("returned a file that cannot be sent"). */
    readonly part: 'value' | 'files' = 'value',
  ) {
    super('INVALID_TOOL_RESULT', `Tool "${toolName}" returned ${part === 'files' ? 'a file that cannot be sent' : 'a result that is not JSON'}: ${reason}.`, cause === undefined ? {} : { cause });
  }
}

/** The files a tool returned (`toolFile`, `toolResult`) are larger, together, than the file size limit. */
export class ToolFilesTooLargeError extends ToolsmithError {
  constructor(
    toolName: string,
    /** Bytes of all the files of the result. */
    readonly bytes: number,
    /** The limit (the runner's `maxToolFileBytes`). */
    readonly maxBytes: number,
  ) {
    super('TOOL_FILES_TOO_LARGE', toolFilesTooLargeMessage(toolName, bytes, maxBytes), { details: { bytes, maxBytes } });
  }
}

/** A tool's result does not match its declared output schema; `details.problems` lists each mismatch. */
export class ToolOutputInvalidError extends ToolsmithError {
  constructor(
    toolName: string,
    /** Each mismatch of the result, at its JSON pointer (also in `details.problems`). */
    readonly problems: readonly ArgumentProblem[],
  ) {
    super(
      'TOOL_OUTPUT_INVALID',
      // No advice: the model reads this, and only the tool's author can fix a result.
      `Tool "${toolName}" returned a result that does not match its output schema: ${listProblems(problems.map((p) => p.message))}.`,
      { details: { problems } },
    );
  }
}

/**
 * An async call ran longer than its timeout (its run, or a step before it that awaits user code, such as an async
 * validation); its `ctx.signal` was aborted and whatever it does later is dropped.
 */
export class ToolTimeoutError extends ToolsmithError {
  constructor(
    toolName: string,
    /** The timeout the call exceeded, in milliseconds (the tool's `timeoutMs` or the runner's `toolTimeoutMs`). */
    readonly timeoutMs: number,
  ) {
    super('TOOL_TIMEOUT', toolTimeoutMessage(toolName, timeoutMs), { details: { timeoutMs } });
  }
}
