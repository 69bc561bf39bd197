import { InsufficientScopeError, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';

/**
 * What an MCP server said when it refused a request: `401` (no token, or one it no longer accepts) or
 * `403 insufficient_scope` (the token lacks a scope), with the `WWW-Authenticate` parameters.
 */
export interface McpAuthChallenge {
  status: 401 | 403;
  /** The challenge's `resource_metadata` URL (RFC 9728). */
  resourceMetadataUrl?: URL;
  /** The scope the server asks for. */
  scope?: string;
}

/** Thrown from the transport's 401 hook: ends the request, so the toolset can ask the user through the run's pause. */
export class McpAuthChallengeError extends Error {
  constructor(readonly challenge: McpAuthChallenge) {
    super(`the MCP server answered ${challenge.status}: authorization required`);
  }

  /** The challenge of a 401 response. */
  static fromResponse(response: Response): McpAuthChallengeError {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    const challenge: McpAuthChallenge = { status: 401 };
    if (resourceMetadataUrl) challenge.resourceMetadataUrl = resourceMetadataUrl;
    if (scope) challenge.scope = scope;
    return new McpAuthChallengeError(challenge);
  }
}

/** The server's authorization challenge somewhere in `error`'s cause chain (a 401, or a 403 insufficient_scope), if any. */
export function authChallengeOf(error: unknown): McpAuthChallenge | undefined {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof McpAuthChallengeError) return current.challenge;
    if (InsufficientScopeError.isInstance(current)) {
      const challenge: McpAuthChallenge = { status: 403 };
      if (current.resourceMetadataUrl) challenge.resourceMetadataUrl = current.resourceMetadataUrl;
      if (current.requiredScope) challenge.scope = current.requiredScope;
      return challenge;
    }
  }
  return undefined;
}
