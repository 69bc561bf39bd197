/**
 * Every code `@toolsmith/mcp` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const MCP_ERROR_CODES = {
  MCP_CONNECTION_FAILED: 'The MCP server could not be started or reached.',
  MCP_CONNECTION_CLOSED: 'The MCP server closed the connection.',
  MCP_PROTOCOL_ERROR: 'The MCP server answered outside the protocol.',
  MCP_TIMEOUT: 'The MCP server did not answer in time.',
  TOOLSMITH_MCP_TOOL_LEFT_OUT:
    "The process warning emitted when McpToolset leaves a server's tool out of its listing (an invalid schema, a reserved name, a name another tool's becomes), naming the tool and why; the other tools are offered (see [mcp.md](mcp.md)).",
  TOOLSMITH_MCP_LISTENER_FAILED: "The process warning emitted when McpToolset's `onProgress` threw or rejected; the call went on.",
  MCP_HEADERS_FAILED: "McpToolset's `headers` function threw or rejected: nothing was sent; the listing (so the run) or the method fails with it.",
  MCP_TOOL_FILTER_FAILED: "McpToolset's `toolFilter` function threw or rejected while the server's tools were listed: the listing (so the run) fails with it.",
  MCP_CANCELLED: 'The call to the MCP server was cancelled (the run was aborted).',
  MCP_INPUT_UNSUPPORTED: 'The MCP server asked for input again after the person answered (McpToolset asks once per call), or for input other than a form.',
  MCP_CONFIRMATION_CHANGED:
    "The MCP server's confirmation of the call the person approved (or edited) asked a question other than the one the person saw; McpToolset answers no question for the person, so it did not answer it and the server ran nothing.",
  MCP_INPUT_CANCELLED:
    'A 2025-era MCP server asked a question while several calls of the session were in flight; McpToolset could not tell which call asked, cancelled the question (nobody rejected the call), and the server answered the call with an error.',
  MCP_AUTHORIZATION_FAILED: "OAuth with the MCP server cannot go on: discovery or registration failed, its metadata is unsafe (another resource, no PKCE S256, an endpoint neither https nor loopback or with a user name or password in its URL) or an answer is over 1 MiB or not in by `oauth.requestTimeoutMs` or a request is redirected more than 5 times, or it still refuses the user's token after they authorized; or the app's client credentials token request was refused, or the server refused that token.",
  MCP_OAUTH_CONFIG_INVALID: "McpToolset's oauth.clientCredentials (or its scope or issuer) cannot work: no client id, not exactly one of a secret and a private key, an unknown algorithm, a key that is not a private key of the algorithm's family, or mixed with the per-user options; or oauth.crossAppAccess lacks what it needs; or an oauth.requestTimeoutMs is not a number above 0 and at most 2147483647.",
  MCP_TOOLS_UNAVAILABLE: "The MCP server's tool list could not be read.",
  MCP_TOOL_ERROR: 'The remote tool reported an error.',
  MCP_PROMPT_NOT_TEXT: "McpToolset.promptInstruction: the server's prompt has an image, audio or a binary resource, which an instruction (text) cannot hold.",
  MCP_CONTEXT_REQUIRED: "An McpToolset method was called without the run's context, which its headers function or OAuth needs.",
  MCP_CONFIRMATION_UNSUPPORTED: 'A served tool needs confirmation and the client cannot ask the user (no elicitation).',
  MCP_CONFIRMATION_FAILED: "Asking the MCP client for confirmation failed: no answer in time, or an acceptance without a boolean `confirmed` (nobody decided; the tool did not run).",
  MCP_RESULT_TOO_LARGE:
    "A served tool with an `outputSchema` ran, but its result is over the call's result budget; cut to the budget it would not match the schema clients check, so it was not sent (saved whole as an artifact when serveMcp has an artifactService: `details.artifact`).",
  MCP_FORM_UNSUPPORTED: "A served tool asked for a form (payloadSchema) that MCP elicitation cannot show (only flat string, number, boolean and enum fields).",
  MCP_REQUEST_STATE_INVALID: "A 2026-07-28 confirmation answer's requestState was not issued by this server, or was altered.",
  MCP_REQUEST_STATE_EXPIRED: "A 2026-07-28 confirmation answer's requestState expired (confirmationTimeoutMs).",
  MCP_REQUEST_STATE_REPLAYED: 'A 2026-07-28 confirmation answer was sent again; each is accepted once.',
  MCP_REQUEST_STATE_MISMATCH: "A 2026-07-28 confirmation answer's requestState was issued to another user, tool or arguments.",
  INVALID_MCP_REQUEST_STATE_KEY: "serveMcp's requestStateKeys is empty, or has a key shorter than 32 bytes or that is neither a string nor bytes.",
  MCP_SAMPLING_UNSUPPORTED: "A served tool asked the client's model, and the call did not come over MCP or the client has no sampling capability.",
  MCP_SAMPLING_FAILED: "A served tool asked the client's model, which refused or did not answer in time.",
  MCP_MODULE_NOT_FOUND: '`toolsmith mcp <module>`: the module does not exist.',
  MCP_MODULE_LOAD_FAILED: '`toolsmith mcp <module>`: loading the module failed, or an export has the wrong shape.',
  MCP_NO_TOOLS_EXPORTED: '`toolsmith mcp <module>`: the module exports no toolset.',
  INVALID_MCP_TOOLS: 'serveMcp was given something that is neither a toolset class, an instance, a toolset nor a tool.',
  INVALID_MCP_TRANSPORT: "serveMcp's transport option is neither stdio nor http.",
  MCP_INVALID_RESOURCE_CONTENTS: 'A @Resource or @ResourceTemplate method returned something other than text, bytes or a file.',
  MCP_INVALID_PROMPT_MESSAGE: 'A @Prompt method returned a message whose content is not text, a file or a resource.',
  MCP_INVALID_RESOURCE_LINK: 'A served tool added a resource link (addMcpResourceLink) without an absolute URI or a name.',
  MCP_INVALID_COMPLETION: 'A @Complete method returned something other than an array of strings.',
} as const;

/** A code `@toolsmith/mcp` reports itself (see {@link MCP_ERROR_CODES}). */
export type McpErrorCode = keyof typeof MCP_ERROR_CODES;
