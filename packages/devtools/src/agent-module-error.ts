import { ToolsmithError } from '@toolsmith/core';

/** Codes of {@link AgentModuleError}. */
export type AgentModuleErrorCode = 'AGENT_MODULE_NOT_FOUND' | 'AGENT_MODULE_LOAD_FAILED' | 'NO_AGENT_EXPORTED';

/**
 * The module given to `toolsmith web`, `api` or `run` cannot be used: it does not exist, loading it
 * threw, or it exports no agent or `Runner` (or several, without saying which). The message names the file and the fix.
 */
export class AgentModuleError extends ToolsmithError {
  /** Why the module cannot be used. */
  declare readonly code: AgentModuleErrorCode;

  constructor(code: AgentModuleErrorCode, message: string, cause?: unknown) {
    super(code, message, cause === undefined ? {} : { cause });
  }
}
