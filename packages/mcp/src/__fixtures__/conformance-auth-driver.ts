// Runs one of the official conformance suite's `auth/*` client scenarios (mcp-conformance.e2e.test.ts)
// in the test's own process: an agent whose toolset is McpToolset with OAuth, driven through the Runner
// exactly as an app drives it. The model (scripted) calls the sign-in tool, then the server's
// `test-tool` (with the app's client credentials there is no sign-in tool: it calls `test-tool` at once); each credential request the run pauses with is answered as a person would: open its
// authUri (the scenario's authorization server consents at once and redirects) and hand the redirect URL
// back as the credential response. Everything the run recorded (session events, spans) is kept for the
// test to search for secrets.
import { get } from 'node:http';
import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  type AuthCredential,
  type CredentialKey,
  InMemoryCredentialService,
  LlmAgent,
  type PendingAuthorization,
  Runner,
  credentialRequests,
  credentialResponse,
  type Content,
  type Event,
} from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { McpClientAssertionAlgorithm } from '../client-assertion';
import type { McpClientCredentialsOptions } from '../mcp-client-credentials';
import type { McpCrossAppAccessOptions } from '../mcp-cross-app-access';
import { McpToolset } from '../mcp-toolset';

/** The scenarios' client ID metadata document URL (it need not resolve: the test server accepts it as is). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://localhost:3000/callback';

/** What one scenario's run left behind, and the secrets it handled. */
export interface AuthScenarioRecord {
  /** Every secret the run handled: what the credential service was handed (tokens, client secrets, PKCE verifiers), the app's secret or private key. */
  secrets: Set<string>;
  /** The session's events, the spans and the run's events, as JSON. */
  recorded: string[];
}

/** A credential service that remembers every secret it is handed, so the test can look for them elsewhere. */
class WatchedCredentialService extends InMemoryCredentialService {
  constructor(private readonly secrets: Set<string>) {
    super();
  }

  override async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    for (const secret of [credential.accessToken, credential.refreshToken, credential.idToken]) if (secret) this.secrets.add(secret);
    await super.saveCredential(key, credential);
  }

  override async savePendingAuthorization(pending: PendingAuthorization): Promise<void> {
    this.secrets.add(pending.codeVerifier);
    if (pending.authConfig.oauth2?.clientSecret) this.secrets.add(pending.authConfig.oauth2.clientSecret);
    await super.savePendingAuthorization(pending);
  }
}

/**
 * The scenarios of the app's own token (the client credentials grant, SEP-1046): the toolset's `oauth`
 * made from the scenario's context (its client id, and its secret or its private key and algorithm).
 */
const APP_SCENARIOS: Record<string, (context: Record<string, string>) => McpClientCredentialsOptions | McpCrossAppAccessOptions> = {
  'auth/client-credentials-basic': (context) => ({ clientCredentials: { clientId: context.client_id, clientSecret: context.client_secret } }),
  'auth/client-credentials-jwt': (context) => ({
    clientCredentials: { clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm as McpClientAssertionAlgorithm },
  }),
  // The user's ID token (the app's own sign-in at the enterprise identity provider) is the scenario's.
  'auth/cross-app-access-complete-flow': (context) => ({
    crossAppAccess: {
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
      idToken: () => context.idp_id_token,
    },
  }),
};

/**
 * Watches every token request made with the global `fetch` (the SDK's), for the secrets it sends and
 * gets back (client assertions, access and refresh tokens), by the RFC 8707 `resource` it names (the
 * scenario's MCP server). `restore()` puts the original `fetch` back.
 */
export function watchTokenRequests(): { secretsFor(resource: string): Set<string>; restore(): void } {
  const original = globalThis.fetch;
  const byResource = new Map<string, Set<string>>();
  const secretsFor = (resource: string) => {
    let secrets = byResource.get(resource);
    if (!secrets) byResource.set(resource, (secrets = new Set()));
    return secrets;
  };
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const body = init?.body instanceof URLSearchParams ? init.body : typeof init?.body === 'string' && init.body.includes('grant_type=') ? new URLSearchParams(init.body) : undefined;
    const resource = body?.get('grant_type') ? body.get('resource') : null;
    if (!body || resource === null) return response;
    const secrets = secretsFor(resource);
    for (const name of ['client_assertion', 'client_secret', 'assertion', 'subject_token']) if (body.get(name)) secrets.add(body.get(name)!);
    const answer = (await response.clone().json().catch(() => ({}))) as Record<string, unknown>;
    for (const name of ['access_token', 'refresh_token', 'id_token']) if (typeof answer[name] === 'string') secrets.add(answer[name]);
    return response;
  };
  return { secretsFor, restore: () => void (globalThis.fetch = original) };
}

/** Runs `scenario` against the scenario's MCP server at `url`; throws what the client would exit 1 for. */
export async function runAuthScenario(url: string, scenario: string, context: Record<string, string>, record: AuthScenarioRecord): Promise<void> {
  const credentialService = new WatchedCredentialService(record.secrets);
  if (context.client_secret) record.secrets.add(context.client_secret);
  if (context.private_key_pem) record.secrets.add(context.private_key_pem);
  if (context.idp_id_token) record.secrets.add(context.idp_id_token);
  const app = APP_SCENARIOS[scenario];
  const toolset = new McpToolset({
    transport: { url },
    clientName: 'toolsmith-conformance',
    timeoutMs: 20_000,
    oauth: app
      ? app(context)
      : {
          credentialService,
          redirectUri: REDIRECT_URI,
          clientMetadataUrl: CIMD_URL,
          ...(scenario === 'auth/pre-registration' ? { client: { clientId: context.client_id, clientSecret: context.client_secret } } : {}),
        },
  });
  let called = false;
  const model = new ScriptedModel((request) => {
    const names = request.tools.map((tool) => tool.name);
    if (names.includes('sign_in')) return { calls: [{ name: 'sign_in' }] };
    if (names.includes('test-tool') && !called) {
      called = true;
      return { calls: [{ name: 'test-tool' }] };
    }
    return 'done';
  });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const runner = new Runner({
    appName: 'conformance',
    agent: new LlmAgent({ name: 'agent', model, tools: [toolset] }),
    credentialService,
    tracing: { tracerProvider, recordContent: true },
  });
  const session = { userId: 'user-1', sessionId: 'session-1' };
  try {
    let message: Content = { role: 'user', parts: [{ text: 'use the server' }] };
    for (let round = 0; round < 6; round++) {
      const events: Event[] = [];
      for await (const event of runner.run({ ...session, newMessage: message })) events.push(event);
      record.recorded.push(JSON.stringify(events));
      const failure = events.find((event) => event.errorCode);
      if (failure) throw new Error(`${failure.errorCode}: ${failure.errorMessage}`);
      const failed = events.flatMap((event) => event.functionResponses()).find((response) => response.isError);
      if (failed) throw new Error(`${failed.name} failed: ${JSON.stringify(failed.response)}`);
      const [request] = events.flatMap((event) => credentialRequests(event));
      if (!request) {
        if (!called) throw new Error('the run ended before test-tool was called');
        return;
      }
      // The person: opens the authorization URL (in a browser of their own: a fresh connection) and comes back with where it redirected.
      message = credentialResponse(request, { redirectUrl: await redirectOf(request.authConfig.authUri!) });
    }
    throw new Error('still asked to authorize after 6 rounds');
  } finally {
    record.recorded.push(JSON.stringify(await runner.sessionService.getSession({ appName: 'conformance', ...session })));
    record.recorded.push(JSON.stringify(exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events }))));
    await runner.close();
  }
}

/** Where `url` redirects to (its `Location`), fetched on a connection of its own. */
function redirectOf(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      const location = response.headers.location;
      if (location) resolve(location);
      else reject(new Error(`opening ${url} gave ${response.statusCode} without a redirect`));
    }).on('error', reject);
  });
}
