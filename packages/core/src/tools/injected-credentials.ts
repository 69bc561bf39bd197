import { type AuthCredential, credentialValues } from '../auth/auth-credential';

/** The secrets handed to each call (by its context): only calls that got a credential have an entry. */
const injected = new WeakMap<object, string[]>();

/** Values shorter than this are not redacted from a call's error: they would take ordinary text with them. */
const MIN_REDACTED_LENGTH = 8;

/**
 * Notes that the call of `context` was handed `credential` (as `ctx.credential` or from
 * `ctx.getAuthResponse`): its string values of 8 characters or more (not `tokenType` or `scope`) are
 * redacted from the call's error before the model, the session or a span sees it.
 */
export function noteInjectedCredential(context: object, credential: AuthCredential): void {
  let secrets = injected.get(context);
  for (const value of credentialValues(credential)) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    if (!secrets) injected.set(context, (secrets = []));
    if (!secrets.includes(value)) secrets.push(value);
  }
}

/** The secrets the call of `context` was handed (see {@link noteInjectedCredential}); `undefined` for a call that got none. */
export function injectedSecrets(context: object): readonly string[] | undefined {
  return injected.get(context);
}
