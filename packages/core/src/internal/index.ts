// `@toolsmith/core/internal`: what Toolsmith's own packages (cli, mcp, nestjs, bench) share beyond the
// public API. Not for applications: nothing here is covered by semver, and the API report marks it so.

// Runs one function call exactly as the runner does, and the model-facing error response every failure
// becomes (used by @toolsmith/mcp's serveMcp).
export { errorResponse, executeToolCall, wrapResult } from './tool-executor';
export { jsonDigest } from '../confirmation/tool-schema-hash';
export type { ExecuteToolCallInput, ToolCallOutcome } from './tool-executor';
export type { ConfirmationGate } from '../confirmation/grant-gate';
export type { ToolCallbackChain } from '../agents/callbacks';
export type { ToolCallPolicy } from '../tools/tool-call-policy';
export { DEFAULT_TOOL_CALL_POLICY } from '../tools/tool-call-policy';
export { createEventActions } from '../state/event-actions';
export { getToolsetOptions } from '../tools/toolset';
export { startValidatorWarmUp } from '../validation/validator-warm-up';
// A remote server's schema, compiled with a regular-expression engine that cannot backtrack (@toolsmith/mcp's McpTool).
export { compileUntrustedSchema } from '../validation/schema-validator';
export { registerTypeScript } from './register-typescript';
// The size limit on an authorization server's answers (core's token requests, @toolsmith/mcp's discovery and registration).
export { MAX_AUTH_RESPONSE_BYTES, limitResponseBodies } from '../auth/limit-response-bodies';
export { ResponseTooLargeError, ResponseTimeoutError } from '../errors/auth-errors';
// The deadline on a request to an authorization server, its body included (core's token requests, @toolsmith/mcp's OAuth).
export { limitResponseTime } from '../auth/limit-response-time';
export { MAX_REQUEST_TIMEOUT_MS, requestTimeoutProblem } from '../auth/request-timeout-problem';
// What an error may name of an endpoint's URL: its origin and path.
export { endpointOf } from '../errors/endpoint-of';
// What looks secret, redacted wherever run data is shown to people (the dev UI's inspector, eval reports).
export { REDACTED, holdsSecretText, isSecretName, redactKnownSecrets, redactSecretText, redactSecrets, secretForms } from '../redaction/secret-redaction';
// What the runner checks of every new user message (shape, argument limits): servers refuse early with it.
export { checkMessageId, checkNewMessage, copyNewMessage } from '../runner/check-new-message';
// A media type's essence in lower case: how files from elsewhere (a remote server's, a model's) are kept.
export { mediaTypeEssence, mediaTypeParameter } from './inline-data-rules';
export { MAX_RUN_ID_LENGTH, runIdProblem, runInputProblem, unreadableRunInput } from '../runner/run-input-problem';
// A run under an invocation id its caller names: DurableRunner's recovered workflow goes on under its run's id.
export { runWithInvocationId } from '../runner/runner';
export { unfitIdentifierCharacter } from '../identifiers/identifier-characters';
export type { CopiedMessage } from '../runner/check-new-message';
// How the runner checks its plugins (frozen copies, errors naming the index): a runner that adds plugins of its own before the user's (@toolsmith/dbos) checks the user's with it first.
export { checkedPlugins } from '../agents/checked-plugins';
// How the runner reads a confirmation answer (the four decisions, `remember`): servers refuse a malformed one early with it.
export { readConfirmationDecision } from '../confirmation/confirmation-decision';
// What startup refuses in a JSON Schema besides the meta-schema (a $ref to nothing, a keyword or format ajv does not check): `toolsmith schema` refuses to write such a schema.
export { schemaCompileProblems } from '../validation/schema-compile-problems';
// How the runner reads a tool's requireConfirmation rule (any truthy answer asks): DurableRunner tells a call that will pause with it.
export { confirmationRuleAsks } from '../tools/require-confirmation';
export type { ConfirmationDecision } from '../confirmation/confirmation-decision';
// What the runner does with a credential the user types in (taken out of the message, then saved): DurableRunner saves it before the message reaches DBOS.
export { withholdCredentials } from '../confirmation/withhold-credentials';
export type { WithheldCredentials } from '../confirmation/withhold-credentials';
export { saveTypedCredentials } from '../confirmation/save-typed-credentials';
// An answer whose typed values are `[redacted]` (read back from a session) is refused; DurableRunner's workflows, handed answers it saved, say so.
export { CALLER_SAVED_CREDENTIALS, redactedCredentialAnswer } from '../confirmation/redacted-credential-answer';
// How the runner checks a person's edited arguments (no repairs): serveMcp refuses a bad edit before it uses up its requestState.
export { givenArgumentProblems } from '../confirmation/given-argument-problems';
export { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
// A call's arguments as the executor read them (JSON text parsed, text repairs redone), for @toolsmith/evals.
export { argumentsAsRead } from '../validation/arguments-as-read';

// Which call ids a stored event claims as answered: every session store refuses a second claim (see SessionService).
export { answerClaims } from '../sessions/answer-claims';
// What every store refuses alike, before it reads or stores anything (INVALID_SESSION_REQUEST).
export { checkAppendRequest, checkClaimRequest, checkCreateSessionRequest, checkFence, checkGetSessionRequest, checkListSessionsRequest, checkReadSessionKey, checkSessionKey } from '../sessions/session-request-check';
// The updates applied inside the append (ctx.state.increment / compareAndSet): every store resolves them alike.
export { resolveStateOps } from '../state/state-ops';
// A state key is any string (`__proto__` included): every store writes state records with these.
export { setStateKey } from '../state/state-keys';
export { applyStateDelta } from '../state/apply-state-delta';
// Every store reads an appended event's delta once, into a plain copy (a getter answers each read otherwise).
export { settleStateDelta } from '../state/settle-state-delta';
// Rows read back are checked before they become a session (SESSION_CORRUPT naming the row).
export { checkStoredEvent, checkStoredState } from '../sessions/stored-session-check';
// One piece of work per key at a time within a process (the runner's session turns; mcp and postgres queue by it too).
export { SessionTurns } from '../runner/session-turns';
export type { SessionTurn } from '../runner/session-turns';

// The build-time manifest's document format, for `toolsmith schema` and `toolsmith mcp`.
export { MANIFEST_FILE_NAME, MANIFEST_VERSION, manifestParametersSchema } from '../scanning/manifest-document';
export type { ManifestDependencies, ManifestDocument, ManifestMethod, ManifestParameter, ManifestSource, ManifestToolset, ManifestType } from '../scanning/manifest-document';
export { hashSource } from '../scanning/manifest-hash';
export { parseManifest } from '../scanning/manifest';
export { MANIFEST_ENV, findManifest } from '../scanning/manifest-registry';

// The HTTP guard every server Toolsmith ships runs first (the dev server, serveMcp's HTTP endpoint):
// Host, Origin, caller, method, JSON bodies and their size, framing headers. See docs/devtools.md.
export { HttpGuard, decodePathSegment, requestPath } from './http-guard/http-guard';
export type { HttpAuthenticate, HttpGuardOptions } from './http-guard/http-guard';
export { HttpGuardError } from './http-guard/http-guard-error';
export type { HttpGuardErrorCode } from './http-guard/http-guard-error';
export { defaultAllowedHosts } from './http-guard/allowed-hosts';
export { SECURITY_HEADERS, setSecurityHeaders } from './http-guard/security-headers';
export { hasBearerToken, newLaunchToken } from './http-guard/launch-token';
export { scanClassOfferings } from '../scanning/class-offerings';
export { uriTemplateShape } from '../scanning/uri-template-variables';
export type { ClassOfferings, OfferedCompletion, OfferedMethod, OfferedPrompt, OfferedResource, OfferedResourceTemplate } from '../scanning/class-offerings';
export { instanceFromContainer } from '../scanning/class-instance-source';
export type { InstanceScope } from '../scanning/class-instance-source';
export { declaresTools } from '../scanning/method-walker';
export { isMediaType, safeFileName } from './inline-data-rules';
