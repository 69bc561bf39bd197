// Public API of @toolsmith/devtools: the dev UI's server (`toolsmith web`), its HTTP/SSE API
// (`toolsmith api`) and what `toolsmith run` shares with them. The wire format is documented in docs/devtools.md.

// ── Serving an agent ────────────────────────────────────────────────────────────────────────────
export { DevAgentHost } from './dev-agent-host';
export type { OpenDevAgentHostOptions } from './dev-agent-host';
export { DEFAULT_EVALS_FILE, DevEvals } from './dev-evals';
export { startDevServer } from './start-dev-server';
export type { DevServer, StartDevServerOptions } from './start-dev-server';
export { loadAgentModule } from './load-agent-module';
export type { AgentModule } from './load-agent-module';
export { openSessionStore } from './open-session-store';
export type { OpenSessionStoreOptions, OpenedSessionStore } from './open-session-store';
export { bundlePage, loadPageBundle } from './page-bundle';
export type { PageBundle } from './page-bundle';

// ── Terminal output ─────────────────────────────────────────────────────────────────────────────
export { formatEvent } from './format-event';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────────
export { AgentModuleError } from './agent-module-error';
export type { AgentModuleErrorCode } from './agent-module-error';
export { DevApiError } from './dev-api-error';
export type { DevApiErrorCode } from './dev-api-error';

// ── The HTTP API's JSON ─────────────────────────────────────────────────────────────────────────
export type {
  ApiErrorBody,
  AppInfo,
  ConfirmationAnswerRequest,
  EvalCaseSaved,
  EvalsInfo,
  LongRunningUpdateRequest,
  RunEnd,
  RunEvalsRequest,
  RunRequest,
  SaveEvalCaseRequest,
  SessionDetail,
  SessionStoreInfo,
  SessionSummary,
  ToolInfo,
  ToolRunRequest,
  ToolRunResult,
  WireCallConfirmation,
  WireInnerCall,
  WirePolicyVerdict,
  WireContent,
  WireDecision,
  WireEvalReport,
  WireEvalTurn,
  WireEvent,
  WireGrant,
  WireGrantScope,
  WireInspection,
  WireModelAttempt,
  WireModelCall,
  WireSpan,
  WireSpanEvent,
  WireTrajectoryDiffLine,
  WirePart,
  WirePending,
  WirePendingConfirmation,
  WirePendingLongRunning,
} from './protocol/api-types';
export { DEVTOOLS_ERROR_CODES } from './devtools-error-codes';
export type { DevtoolsErrorCode } from './devtools-error-codes';
