// The enterprise identity provider of cross-app access (SEP-990) for tests, on node:http: its token
// endpoint does the token exchange (RFC 8693) of a user's ID token for an ID-JAG, refusing an unknown
// client or ID token. The ID-JAGs are opaque strings it remembers: `userOf` (the test OAuth2 server's
// `jwtBearer` option) tells the MCP server's authorization server whose each one is, once.
import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One token exchange the identity provider answered. */
export interface CrossAppExchange {
  /** The user of the ID token it was given. */
  user: string;
  /** The ID token itself. */
  idToken: string;
  audience: string | null;
  resource: string | null;
}

/** A running {@link startCrossAppIdp}. */
export interface CrossAppIdp {
  /** `http://127.0.0.1:<port>/token`. */
  tokenEndpoint: string;
  /** The client id the app has there. */
  clientId: string;
  /** The ID token the app holds for `user` (the same each time). */
  idTokenOf(user: string): string;
  /** The user an ID-JAG was issued for, once (`undefined` for an unknown or used one). */
  userOf(idJag: string): string | undefined;
  /** Every exchange answered, in order. */
  exchanges: CrossAppExchange[];
  close(): Promise<void>;
}

/** Starts a {@link CrossAppIdp} on a free local port, for the users named. */
export async function startCrossAppIdp(users: string[]): Promise<CrossAppIdp> {
  const clientId = 'app-at-idp';
  const idTokens = new Map(users.map((user) => [`id-token-${user}-${randomBytes(8).toString('base64url')}`, user]));
  const grants = new Map<string, string>();
  const exchanges: CrossAppExchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const idToken = form.get('subject_token') ?? '';
      const user = idTokens.get(idToken);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' || form.get('client_id') !== clientId || user === undefined) {
        return answer(400, { error: 'invalid_grant', error_description: 'unknown client or ID token' });
      }
      exchanges.push({ user, idToken, audience: form.get('audience'), resource: form.get('resource') });
      const idJag = `id-jag-${randomBytes(16).toString('base64url')}`;
      grants.set(idJag, user);
      return answer(200, { access_token: idJag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const byUser = new Map([...idTokens].map(([token, user]) => [user, token]));
  return {
    tokenEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    clientId,
    idTokenOf: (user) => byUser.get(user)!,
    userOf: (idJag) => {
      const user = grants.get(idJag);
      grants.delete(idJag);
      return user;
    },
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
