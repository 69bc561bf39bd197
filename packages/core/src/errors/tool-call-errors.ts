import { ToolsmithError, ToolsmithErrorOptions } from './toolsmith-error';

/** One problem found while validating a tool's arguments. */
export interface ArgumentProblem {
  /** JSON pointer of the offending value (`""` for the arguments object itself). */
  path: string;
  /** One readable sentence, e.g. `"/city" must be string`. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `minimum`, …). */
  keyword: string;
}

/** The model called a tool that is not offered in this request. */
export class ToolNotFoundError extends ToolsmithError {
  constructor(
    readonly toolName: string,
    readonly availableTools: readonly string[],
  ) {
    super(
      'TOOL_NOT_FOUND',
      `Tool "${toolName}" is not available. Available tools: ${availableTools.length ? availableTools.join(', ') : '(none)'}.`,
      { details: { availableTools } },
    );
  }
}

/** The arguments were a string that is not a JSON object. */
export class MalformedArgumentsError extends ToolsmithError {
  constructor(toolName: string, reason: string, options: ToolsmithErrorOptions = {}) {
    super('MALFORMED_ARGUMENTS', `Arguments for tool "${toolName}" are not a valid JSON object: ${reason}.`, options);
  }
}

/** The arguments exceed a configured size or nesting-depth limit. */
export class ArgumentsLimitError extends ToolsmithError {
  constructor(code: 'ARGUMENTS_TOO_LARGE' | 'ARGUMENTS_TOO_DEEP', message: string) {
    super(code, message);
  }
}

/** The arguments do not match the tool's schema; `problems` lists each one. */
export class InvalidArgumentsError extends ToolsmithError {
  constructor(
    toolName: string,
    readonly problems: readonly ArgumentProblem[],
  ) {
    super(
      'INVALID_ARGUMENTS',
      `Invalid arguments for tool "${toolName}": ${problems.map((p) => p.message).join('; ')}.`,
      { details: { problems } },
    );
  }
}

/** The tool itself threw. The model sees only `message`; the original error is kept as `cause`. */
export class ToolExecutionError extends ToolsmithError {
  constructor(toolName: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('TOOL_EXECUTION_FAILED', `Tool "${toolName}" failed: ${reason}`, { cause });
  }
}
