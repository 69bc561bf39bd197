// Public testing helpers: `@toolsmith/core/testing`.

// ── Wire-protocol test server (shared by adapter tests) ──────────────────────────────────────────
export { startWireServer, parseSseFixture } from './wire-server';
export type { RecordedRequest, SseEvent, WireReply, WireServer } from './wire-server';
export { readRecording, recordedReply, startReplayServer } from './recorded-exchanges';
export type { RecordedExchange, Recording } from './recorded-exchanges';

// ── OAuth2 authorization server and protected API (tool authentication tests) ─────────────────────
export { startOAuth2TestServer } from './oauth2-test-server';
export type { IssuedToken, OAuth2TestServer, OAuth2TestServerOptions, ReceivedTokenRequest } from './oauth2-test-server';

// ── invokeTool ───────────────────────────────────────────────────────────────────────────────────
export { invokeTool } from './invoke-tool';
export type { InvokeToolOptions, InvokeToolResult } from './invoke-tool';
export type {
  ArgumentsOf,
  IfEquals,
  InvokableToolArguments,
  InvokableToolName,
  JsonShape,
  MethodArguments,
  MethodKeys,
  MethodNamed,
  NamesOf,
  ReadonlyKeys,
  ToolMethodName,
  WithoutContext,
} from './invoke-tool-types';

// ── ScriptedModel ────────────────────────────────────────────────────────────────────────────────
export { ScriptedModel } from './scripted-model';
export type { Script, ScriptedCall, ScriptedModelOptions, ScriptedTurn } from './scripted-model';

// ── Adapter conformance kit ──────────────────────────────────────────────────────────────────────
export { runAdapterConformance } from './conformance/adapter-conformance';
export type { AdapterConformanceOptions } from './conformance/adapter-conformance';
export type { ConformanceTurn, WireCodec, WireToolResult } from './conformance/wire-codec';
export { requestAfterToolCall } from './conformance/request-after-tool-call';
export { SAMPLE_FILES, fileReturningTool } from './conformance/file-returning-tool';
export type { RequestAfterToolCallOptions } from './conformance/request-after-tool-call';
export { runDialectGrid } from './conformance/dialect-grid';
export type { DialectGridOptions, GridOutcome } from './conformance/dialect-grid';
export { SCHEMA_CONSTRUCTS } from './conformance/schema-constructs';
export type { SchemaConstruct } from './conformance/schema-constructs';
export { runSessionStoreConformance } from './conformance/session-store-conformance';
export type { SessionStoreConformanceOptions } from './conformance/session-store-conformance';
export { runGrantServiceConformance } from './conformance/grant-service-conformance';
export type { GrantServiceConformanceOptions } from './conformance/grant-service-conformance';

// ── Small test helpers ───────────────────────────────────────────────────────────────────────────
export { collect } from './collect';
export { testToolContext } from './test-tool-context';
export type { TestToolContextOptions } from './test-tool-context';
export { waitFor } from './wait-for';
export type { WaitForOptions } from './wait-for';
export { expectCancelsOnAbort } from './expect-cancels-on-abort';
export type { CancellationCheck } from './expect-cancels-on-abort';
export { halves } from './text-halves';

// ── Error codes: every code listed and documented ───────────────────────────────────────────────
export { errorCodeProblems } from './error-code-check';
export type { ErrorCodeCheckInput } from './error-code-check';

// ── A tool that needs approval (confirmation and agent-tool tests) ───────────────────────────────
export { wipeTool } from './wipe-tool';
