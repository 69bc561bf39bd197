// Public API of `@toolsmith/core/adapter-kit`: what a provider adapter's author uses (call ids, argument
// parsing, retries, abort scoping, provider data, schema helpers). App authors never need it.
export { parseRetryAfter } from './parse-retry-after';
export type { HeaderSource } from './parse-retry-after';
export { generateCallId, stableCallId } from './call-id';
export { pairToolResults } from './pair-tool-results';
export { scopeAbortSignal } from './scoped-abort-signal';
export type { ScopedAbortSignal } from './scoped-abort-signal';
export { selectProviderTools } from './select-provider-tools';
export { SchemaRefError, inlineSchemaRefs } from './schema-ref-inliner';
export { argsAsObject, argsFromJsonText, argsFromJsonValue } from './function-call-args';
export { partialFunctionCallResponse } from './partial-function-call';
export { base64Bytes, dataUrl, toolFileName, toolFilesIntro, unsupportedInlineDataNote, unsupportedToolFileNote } from './tool-result-files';
export { utf8Text } from './utf8-text';
export { callProvider } from './provider-call';
export type { ProviderCall } from './provider-call';
export { DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelayMs } from './retry-policy';
export type { RetryPolicy } from './retry-policy';
export { schemaProblems } from './schema-problems';
export { providerErrorCodeForStatus } from './status-code';
export { createProviderError } from './create-provider-error';
export { ownThoughtSignature, providerDataOf, providerDataPart, signedBy } from './provider-data';
export { CONSTRAINT_NOTE_PREFIX, constraintNote, moveToDescription, withNote } from './constraint-note';
export { ProviderToolNameError } from './provider-tool-name-error';
export { ToolLimitError, findToolLimitViolation } from './tool-limits';
export type { ToolLimitName, ToolLimitViolation, ToolLimits } from './tool-limits';
export { billedUsageOf, withBilledUsage } from '../model/billed-usage';
export type { ProviderExchange, ProviderExchangeObserver } from '../model/provider-exchange';
