// @toolsmith/mcp: use MCP servers' tools (McpToolset) and serve Toolsmith tools over MCP (serveMcp).

// ── Use an MCP server's tools ───────────────────────────────────────────────────────────────────
export { McpToolset } from './mcp-toolset';
export type { McpHttpTransportOptions, McpToolsetOptions } from './mcp-toolset';
export type { McpProtocolChoice, McpStdioTransportOptions } from './mcp-connection';
export type { McpProgressListener, McpRemoteTool, McpToolProgress } from './mcp-tool';
export { acceptFormDefaults } from './mcp-elicitation-handler';
export type { McpElicitationAnswer, McpElicitationForm, McpElicitationHandler, McpElicitationOrigin } from './mcp-elicitation-handler';
export type { McpResourceContents, McpResourceLinkInfo } from './mcp-resource-contents';
export type { McpCompletion, McpCompletionTarget, McpPrompt, McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo } from './mcp-remote-offerings';
export { McpCredentialProvider } from './mcp-oauth-provider';
export type { McpOAuthOptions } from './mcp-oauth-provider';
export type { McpPreRegisteredClient } from './mcp-authorization';
export type { McpClientCredentialsOptions, McpClientPrivateKey, McpClientSecret } from './mcp-client-credentials';
export type { McpClientAssertionAlgorithm } from './client-assertion';
export type { McpCrossAppAccessOptions, McpIdentityProvider } from './mcp-cross-app-access';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────────
export { McpConfirmationUnsupportedError, McpConnectionError, McpFormUnsupportedError, McpResultTooLargeError, McpToolError } from './mcp-errors';
export type { McpConnectionErrorCode } from './mcp-errors';

// ── Serve Toolsmith tools over MCP ──────────────────────────────────────────────────────────────
export { serveMcp } from './serve-mcp';
export type { McpServerHandle, ServeMcpHttpOptions, ServeMcpOptions } from './serve-mcp';
export type { McpAuthenticate, McpCaller, StreamableHttpLimits } from './streamable-http-endpoint';
export type { ServedTools } from './resolve-served-tools';
export { reportMcpProgress } from './report-mcp-progress';
export type { McpProgress } from './report-mcp-progress';
export { MCP_LOG_LEVELS, sendMcpLog } from './send-mcp-log';
export { addMcpResourceLink } from './mcp-resource-link';
export type { McpResourceLink } from './mcp-resource-link';
export type { McpLogLevel, McpLogMessage } from './send-mcp-log';
export { MCP_SESSION_META } from './mcp-request-session';
export { requestMcpSampling } from './request-mcp-sampling';
export type { McpSamplingRequest, McpSamplingResult } from './request-mcp-sampling';

// ── Serve a module's toolsets (the `toolsmith mcp <module>` command) ────────────────────────────
export { serveModuleOverStdio } from './serve-module-over-stdio';
export type { ServeModuleOptions } from './serve-module-over-stdio';
export { loadToolsModule } from './load-tools-module';
export type { ToolsModule } from './load-tools-module';
export { MCP_ERROR_CODES } from './mcp-error-codes';
export type { McpErrorCode } from './mcp-error-codes';
