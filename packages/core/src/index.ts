import 'reflect-metadata';

// ── Errors ───────────────────────────────────────────────────────────────────────────────────────
export { ToolsmithError } from './errors/toolsmith-error';
export { CORE_ERROR_CODES } from './errors/error-codes';
export { thrownMessage } from './errors/thrown-message';
export { reportableError } from './errors/reportable-error';
export type { CoreErrorCode } from './errors/error-codes';
export type { DetailPath, ToolsmithErrorOptions } from './errors/toolsmith-error';
export type { ArgumentProblem } from './errors/tool-call-errors';
export {
  ArgumentsLimitError,
  InvalidArgumentsError,
  MalformedArgumentsError,
  ToolExecutionError,
  InvalidToolResultError,
  ToolFilesTooLargeError,
  ToolOutputInvalidError,
  ToolTimeoutError,
  ToolNotFoundError,
  UpdateContinuationInvalidError,
} from './errors/tool-call-errors';
export { ToolCallRejectedError } from './errors/tool-rejected-error';
export { OutputInvalidError } from './errors/output-invalid-error';
export {
  ContentFilterError,
  ContextLengthExceededError,
  ProviderError,
  ProviderOverloadedError,
  QuotaExceededError,
  RateLimitError,
} from './errors/provider-errors';
export type { ProviderErrorCode, ProviderErrorOptions } from './errors/provider-errors';
export { StateValueError } from './errors/state-value-error';
export { StateConflictError } from './errors/state-conflict-error';

// ── Neutral model spec ───────────────────────────────────────────────────────────────────────────
export type { ArgumentRepair, ArgumentRepairName, Content, FunctionCall, FunctionResponse, FunctionResponsePart, InlineData, Part, PartialFunctionCall, Role } from './model/content';
export type { FunctionDeclaration } from './model/function-declaration';
export type { JsonSchema, JsonValue } from './model/json-schema';
export type { FinishReason } from './model/finish-reason';
export type { GenerationConfig, LlmRequest, ResponseSchema, ToolChoice } from './model/llm-request';
export type { LlmResponse, Usage } from './model/llm-response';
export type { GenerateOptions, Model, RequestSettings } from './model/model';
export type { ProviderExchange, ProviderExchangeObserver } from './model/provider-exchange';
export { isProviderTool } from './model/provider-tool';
export type { ProviderTool } from './model/provider-tool';

// ── State, actions, services ─────────────────────────────────────────────────────────────────────
export { State, StatePrefix } from './state/state';
export type { ReadonlyState } from './state/state';
export type { StateOp } from './state/state-ops';
export type { EventActions, LongRunningUpdateAnswer, RelayedConfirmation, ToolConfirmation } from './state/event-actions';
export type { MemoryEntry, MemoryService, MemorySource, SearchMemoryResponse } from './memory/memory-service';
export type { ArtifactLocation, ArtifactService } from './artifacts/artifact-service';

// ── Tools ────────────────────────────────────────────────────────────────────────────────────────
export { Tool } from './tools/tool';
export type { ToolInputDecorator, ToolOptions } from './tools/tool';
export { Toolset, isToolset } from './tools/toolset';
export type { ToolsetOptions } from './tools/toolset';
export { BaseTool, LONG_RUNNING_NOTE } from './tools/base-tool';
export type { ToolBehaviour, ToolBehaviourKey } from './tools/base-tool';
export { ToolContext } from './tools/tool-context';
export type { ToolContextInit } from './tools/tool-context';
export type { ReadonlyContext } from './tools/readonly-context';
export type { RequireConfirmation } from './tools/require-confirmation';

// ── Callbacks ────────────────────────────────────────────────────────────────────────────────────
export type {
  AfterModelCallback,
  AfterToolCallback,
  AgentCallbacks,
  BeforeModelCallback,
  BeforeToolCallback,
  MaybePromise,
  ModelCallbackResult,
  OnModelErrorCallback,
  OnToolErrorCallback,
  ToolCallbackResult,
} from './agents/callbacks';
export type { CallbackContext } from './agents/callback-context';

// ── Scanning, decorators, DI ─────────────────────────────────────────────────────────────────────
export { Param } from './decorators/param.decorator';
export type { ParamOptions } from './decorators/param.decorator';
export { Ctx } from './decorators/ctx.decorator';
export { Describe } from './decorators/describe.decorator';
export { UseClassValidator } from './decorators/use-class-validator.decorator';
export { Resource } from './decorators/resource.decorator';
export type { ResourceContents, ResourceOptions } from './decorators/resource.decorator';
export { ResourceTemplate } from './decorators/resource-template.decorator';
export type { ResourceTemplateOptions } from './decorators/resource-template.decorator';
export { Prompt } from './decorators/prompt.decorator';
export type { PromptArgument, PromptMessage, PromptOptions, PromptResource } from './decorators/prompt.decorator';
export { Complete } from './decorators/complete.decorator';
export type { CompleteOptions } from './decorators/complete.decorator';
export type { OfferingContext } from './tools/offering-context';
export { OfferingDefinitionError } from './errors/offering-definition-errors';
export type { OfferingDefinitionErrorCode } from './errors/offering-definition-errors';
export { scanTools } from './scanning/tool-scanner';
export type { ScanOptions, ToolDefinition } from './scanning/tool-scanner';
export { createClassTools } from './scanning/class-tools';
export type { ClassToolsOptions } from './scanning/class-tools';
export { functionTool } from './function-tool/function-tool';
export type { FunctionToolConfig } from './function-tool/function-tool';
export { allowTools, filterToolset } from './tools/filter-toolset';
export type { ToolPredicate } from './tools/filter-toolset';
export { Container } from './di/container';
export type { ContainerAdapter, InjectionToken, ResolutionScope } from './di/container-adapter';
export type { Class, ClassProvider, FactoryProvider, Provider, ProviderScope, ValueProvider } from './di/provider';
export { Inject } from './di/inject.decorator';
export { Injectable } from './di/injectable.decorator';
export type { InjectableOptions } from './di/injectable.decorator';
export type { ToolsmithClassDecorator, ToolsmithMethodDecorator } from './decorators/decorator-types';
export {
  DuplicateToolNameError,
  InvalidDtoError,
  InvalidConfirmationRuleError,
  InvalidInputSchemaError,
  InvalidParametersError,
  InvalidToolNameError,
  MissingTypeMetadataError,
  NoToolsError,
  ToolDefinitionError,
  UndecoratedParameterError,
  UnknownParameterTypeError,
  UnsupportedDtoDecoratorError,
} from './errors/tool-definition-errors';
export type { DefinitionSite, ManifestGap } from './errors/messages';
export { DependencyResolutionError } from './errors/dependency-resolution-error';
/** Why a constructor parameter cannot be injected (`UNKNOWN_DEPENDENCY_TYPE`): which case its message explains. */
export type { UnknownDependencyReason } from './errors/messages';
export { InvalidDecoratorError } from './errors/invalid-decorator-error';

// ── Runner, agents, sessions ─────────────────────────────────────────────────────────────────────
export { BaseAgent } from './agents/base-agent';
export type { BaseAgentOptions } from './agents/base-agent';
export { LlmAgent } from './agents/llm-agent';
export type { AgentToolEntry, Instruction, LlmAgentOptions } from './agents/llm-agent';
export { DEFAULT_COMPACTION_PROMPT } from './context/compaction-options';
export type { CompactionOptions, SummarizeCompaction, TrimCompaction } from './context/compaction-options';
export type { EventCompaction } from './context/event-compaction';
export type { BudgetOverrun, RunBudget } from './context/run-budget';
export { RunBudgetExceededError } from './errors/run-budget-exceeded-error';
export type { OutputSchema } from './agents/output-schema';
export { LoopAgent } from './agents/loop-agent';
export type { LoopAgentOptions } from './agents/loop-agent';
export { SequentialAgent } from './agents/sequential-agent';
export { InvocationContext } from './agents/invocation-context';
export type { AgentBackedTool } from './agents/agent-backed-tool';
export type { Plugin } from './agents/plugin';
export { Runner } from './runner/runner';
export type { RunInput, RunnerOptions } from './runner/runner';
export type { AgentOutput, AskPending, AskResult } from './runner/ask-result';
export type { TracingOptions } from './tracing/tracing-options';
export { PAUSED_TRACEPARENT_KEY } from './tracing/gen-ai-conventions';
export { Event } from './events/event';
export type { EventData, EventInit } from './events/event';
export { Session } from './sessions/session';
export type { SessionData } from './sessions/session';
export type { GetSessionRequest, ListSessionsRequest, SessionKey, SessionService } from './sessions/session-service';
export type { ClaimOutcome, ClaimSessionRequest, LoadedSession, SessionClaim } from './sessions/session-claim';
export type { SessionClaimPolicy } from './runner/session-claim-policy';
export { StaleSessionError, SessionExistsError, SessionNotFoundError, SessionBusyError, InvalidSessionRequestError, SessionCorruptError } from './errors/session-errors';
export { ToolInterruptedError } from './errors/tool-interrupted-error';
export type { SessionErrorCode } from './errors/session-errors';
export { InMemorySessionService } from './sessions/in-memory-session-service';
export type { InMemorySessionServiceData, InMemorySessionServiceOptions } from './sessions/in-memory-session-service';
export { MaxLlmCallsExceededError } from './errors/max-llm-calls-exceeded-error';
export { RunAbortedError } from './errors/run-aborted-error';
export { AgentConfigError } from './errors/agent-config-error';
export { AgentNotFoundError } from './errors/agent-not-found-error';
export { TRANSFER_TO_AGENT, TransferToAgentTool } from './builtins/transfer-to-agent';
export { AgentTool } from './agent-tool/agent-tool';
export type { AgentToolOptions } from './agent-tool/agent-tool';
export { exitLoop } from './builtins/exit-loop';
export { loadMemory } from './builtins/load-memory';
export { PreloadMemoryTool, preloadMemory } from './builtins/preload-memory';
export { LoadArtifactsTool, loadArtifacts } from './builtins/load-artifacts';
export { InMemoryMemoryService } from './memory/in-memory-memory-service';
export { InMemoryArtifactService } from './artifacts/in-memory-artifact-service';
export { FileArtifactService } from './artifacts/file-artifact-service';
export { ArtifactOutsideRootError, InvalidArtifactNameError } from './errors/invalid-artifact-name-error';
export { InvalidMessageError } from './errors/invalid-message-error';
export { InvalidModelRequestError } from './errors/invalid-model-request-error';
export { InvalidModelResponseError } from './errors/invalid-model-response-error';
export type { ToolErrorExposure, ToolOutputValidation } from './tools/tool-call-policy';
export type { ArgumentLimits } from './validation/argument-parser';
export { DEFAULT_TOOL_TIMEOUT_MS, DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_TOOL_FILE_BYTES } from './tools/tool-call-policy';
export { ToolFile, ToolResult, toolFile, toolResult } from './tools/tool-file';
export type { ToolFileInit } from './tools/tool-file';
export type { TruncatedResult } from './internal/result-budget';

// ── Confirmation and long-running tools ──────────────────────────────────────────────────────────
export { REQUEST_CONFIRMATION, isConfirmationRequest, originalCallFrom } from './confirmation/request-confirmation';
export type { ConfirmationPrompt, ConfirmationRequestArgs } from './confirmation/request-confirmation';
export { confirmationResponse, confirmationResponsePart } from './confirmation/confirmation-response';
export type { ConfirmationAnswer, ConfirmationRequestRef } from './confirmation/confirmation-response';
export { confirmationRequests } from './confirmation/confirmation-requests';
export type { ConfirmationRequest } from './confirmation/confirmation-requests';
export { longRunningResponse } from './confirmation/long-running-response';
export type { LongRunningResponseInput } from './confirmation/long-running-response';
export type { LongRunningQuestion } from './confirmation/long-running-question';
export { findPendingCalls } from './confirmation/pending-calls';
export { checkFunctionResponses } from './confirmation/check-function-responses';
export type { PendingCalls, PendingConfirmation, PendingLongRunning } from './confirmation/pending-calls';
export { ConfirmationMismatchError } from './errors/confirmation-mismatch-error';
export { ConfirmationEditInvalidError } from './errors/confirmation-edit-invalid-error';
export { InvalidGrantError } from './errors/invalid-grant-error';
export { grantProblem } from './confirmation/grant-problem';
export type { ConfirmationDecisionKind } from './confirmation/confirmation-decision';
export type { CallConfirmation } from './confirmation/call-confirmation';
export type { InnerCallRecord } from './confirmation/inner-call-record';
export type { RememberGrant } from './confirmation/confirmation-decision';
export type { ConfirmationGrant, GrantQuery, GrantScope, GrantService, NewGrant } from './confirmation/grant-service';
export { InMemoryGrantService } from './confirmation/in-memory-grant-service';
export { toolSchemaHash } from './confirmation/tool-schema-hash';
export type {
  ConfirmationPolicy,
  ConfirmationPolicyDecision,
  ConfirmationPolicyInput,
  ConfirmationPolicyOptions,
  ConfirmationPolicySetting,
  ConfirmationPolicyVerdict,
} from './confirmation/confirmation-policy';
export { ConfirmationPolicyError } from './errors/confirmation-policy-error';
export { ToolCallDeniedError } from './errors/tool-call-denied-error';
export { FunctionResponseNotPendingError } from './errors/function-response-not-pending-error';
export type { NotPendingReason } from './errors/function-response-not-pending-error';
export { InvalidConfirmationAnswerError } from './errors/invalid-confirmation-answer-error';
export { InvalidFunctionResponseError } from './errors/invalid-function-response-error';
export { MalformedConfirmationRequestError } from './errors/malformed-confirmation-request-error';

// Tool authentication
export { authConfigId, publicAuthConfig } from './auth/auth-config';
export type { AuthConfig, AuthScheme, OAuth2ClientConfig } from './auth/auth-config';
export { isCredentialExpired } from './auth/auth-credential';
export type { AuthCredential } from './auth/auth-credential';
export { PENDING_AUTHORIZATION_TTL_MS } from './auth/credential-service';
export type { CredentialKey, CredentialService, PendingAuthorization } from './auth/credential-service';
export { InMemoryCredentialService } from './auth/in-memory-credential-service';
export { REQUEST_CREDENTIAL, isCredentialRequest } from './auth/request-credential';
export type { CredentialRequestArgs, CredentialRequestRecord } from './auth/request-credential';
export { credentialRequests } from './confirmation/credential-requests';
export type { CredentialRequest } from './confirmation/credential-requests';
export { credentialResponse } from './confirmation/credential-response';
export type { CredentialAnswerInput } from './confirmation/credential-response';
export {
  AuthConfigInvalidError,
  AuthStateMismatchError,
  AuthorizationExpiredError,
  CredentialDecryptError,
  CredentialSaveFailedError,
  CredentialServiceMissingError,
  InvalidCredentialAnswerError,
  TokenEndpointUnavailableError,
  TokenRequestError,
} from './errors/auth-errors';
export type { AuthErrorCode } from './errors/auth-errors';
export type { ConfirmationHint } from './tools/confirmation-hint';
export { AgentToolConfirmationError } from './errors/agent-tool-confirmation-error';
export type { WorkflowPosition } from './state/event-actions';

// ── Build-time schema manifest (`toolsmith schema`) ──────────────────────────────────────────────
export { ManifestError } from './errors/manifest-errors';
export type { ManifestErrorCode } from './errors/manifest-errors';
export { ToolManifest, loadManifest } from './scanning/manifest';
export type { ManifestOptions, ManifestProblemPolicy, ManifestSourceStatus } from './scanning/manifest';
export { useManifest } from './scanning/manifest-registry';
export { manifestType } from './scanning/manifest-type';
export type { ManifestTypeOptions, ManifestTypeRef } from './scanning/manifest-type';
