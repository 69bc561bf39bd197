import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type JsonSchema, ToolsmithError } from '@toolsmith/core';
import { jsonDigest } from '@toolsmith/core/internal';
import { McpRequestStateError } from './mcp-errors';

/** What a confirmation's `requestState` binds: who may answer it, for which call, until when. */
export interface ConfirmationState {
  /** Single-use id: the state store remembers it once the answer is accepted. */
  nonce: string;
  /** The caller the confirmation was asked of (`ctx.userId`). */
  userId: string;
  tool: string;
  /** SHA-256 of the call's arguments (sorted JSON). */
  argsDigest: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The tool's hint and payload, as `ctx.toolConfirmation` gets them when it runs. */
  hint?: string;
  payload?: unknown;
  /** The form the tool asked for (`payloadSchema`): the answer is that form filled in, checked against it. */
  payloadSchema?: JsonSchema;
  /** `false` when the tool asked with `editable: false`: the answer may not be an edit. */
  editable?: false;
}

const PREFIX = 'ts1';
const MIN_KEY_BYTES = 32;

/**
 * Seals and opens the `requestState` of 2026-07-28 confirmations: HMAC-SHA256 over the JSON state,
 * `ts1.<key id>.<base64url state>.<base64url MAC>`. The first key signs; every key verifies, so a key is
 * rotated by putting the new one first and dropping the old one once its states have expired. Signed,
 * not encrypted: the client can read the state (it is its own call), never change it.
 */
export class RequestStateSealer {
  private readonly keys: ReadonlyArray<{ id: string; secret: Buffer }>;

  /** @param keys Secrets of at least 32 bytes (strings or bytes); absent: a random key of this process. An empty list is refused. */
  constructor(keys: readonly (string | Uint8Array)[] | undefined) {
    const refuse = (problem: string) => new ToolsmithError('INVALID_MCP_REQUEST_STATE_KEY', `serveMcp: ${problem}`);
    if (keys !== undefined && (!Array.isArray(keys) || keys.length === 0)) {
      throw refuse('requestStateKeys must list at least one key (leave the option out for a random key of this process).');
    }
    const secrets = (keys ?? [randomBytes(32)]).map((key: unknown) => {
      if (typeof key === 'string') return Buffer.from(key, 'utf8');
      if (key instanceof Uint8Array) return Buffer.from(key);
      throw refuse(`each requestStateKeys entry must be a string or bytes (a Uint8Array); one is ${key === null ? 'null' : typeof key}.`);
    });
    for (const secret of secrets) {
      if (secret.length < MIN_KEY_BYTES) throw refuse(`each requestStateKeys entry must be at least ${MIN_KEY_BYTES} bytes; one has ${secret.length}.`);
    }
    this.keys = secrets.map((secret) => ({ id: createHash('sha256').update(secret).digest('hex').slice(0, 8), secret }));
  }

  /** A new state for a confirmation of `tool` with `args`, asked of `userId`, valid for `ttlMs`. */
  seal(state: Omit<ConfirmationState, 'nonce' | 'argsDigest' | 'expiresAt'> & { args: Record<string, unknown>; ttlMs: number; now: number }): string {
    const { args, ttlMs, now, ...rest } = state;
    const body: ConfirmationState = { ...rest, nonce: randomUUID(), argsDigest: jsonDigest(args), expiresAt: now + ttlMs };
    const [key] = this.keys;
    const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
    return `${PREFIX}.${key!.id}.${encoded}.${this.mac(key!.secret, key!.id, encoded)}`;
  }

  /**
   * Opens a state echoed by a client and checks it against the retried call: `MCP_REQUEST_STATE_INVALID`
   * when it is not one of ours (malformed, unknown key, MAC), `MCP_REQUEST_STATE_EXPIRED`, and
   * `MCP_REQUEST_STATE_MISMATCH` when another user, tool or arguments retry it (`args` absent: not
   * checked, for a retry whose answer edits the call to the arguments it carries). Single use is the
   * caller's part (the state store).
   */
  open(wire: string, call: { userId: string; tool: string; args: Record<string, unknown> | undefined }, now: number): ConfirmationState {
    const parts = wire.split('.');
    const key = parts.length === 4 && parts[0] === PREFIX ? this.keys.find((candidate) => candidate.id === parts[1]) : undefined;
    if (!key) throw new McpRequestStateError('MCP_REQUEST_STATE_INVALID', call.tool, 'it is not a state this server issued (malformed, or signed with a key it no longer has)');
    const expected = Buffer.from(this.mac(key.secret, key.id, parts[2]!), 'utf8');
    const given = Buffer.from(parts[3]!, 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new McpRequestStateError('MCP_REQUEST_STATE_INVALID', call.tool, 'its signature does not match (it was altered or forged)');
    }
    const state = JSON.parse(Buffer.from(parts[2]!, 'base64url').toString('utf8')) as ConfirmationState;
    if (now >= state.expiresAt) throw new McpRequestStateError('MCP_REQUEST_STATE_EXPIRED', call.tool, `it expired at ${new Date(state.expiresAt).toISOString()}; call the tool again to be asked again`);
    if (state.userId !== call.userId) throw new McpRequestStateError('MCP_REQUEST_STATE_MISMATCH', call.tool, 'it was issued to another user');
    if (state.tool !== call.tool) throw new McpRequestStateError('MCP_REQUEST_STATE_MISMATCH', call.tool, `it was issued for tool "${state.tool}"`);
    // No args: the retry's answer is an edit to the arguments it carries (the caller checked that), not the asked ones.
    if (call.args !== undefined && state.argsDigest !== jsonDigest(call.args)) {
      throw new McpRequestStateError('MCP_REQUEST_STATE_MISMATCH', call.tool, 'it was issued for other arguments (retry the call with the arguments it was asked with)');
    }
    return state;
  }

  private mac(secret: Buffer, keyId: string, encoded: string): string {
    return createHmac('sha256', secret).update(`${PREFIX}.${keyId}.${encoded}`).digest('base64url');
  }
}
