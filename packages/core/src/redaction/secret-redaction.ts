// What looks secret, for the places that show run data to people (the dev UI's inspector, eval reports).

/**
 * A name (attribute, argument, header, property) that suggests its value is a secret. A name ending in
 * `token` is one (`token`, `githubToken`, `csrf_token`); token counts (`input_tokens`) are not.
 */
const SECRET_NAME =
  /authorization|api[-_.]?key|secret|password|passwd|passphrase|pwd|bearer|token$|(?:access|refresh|auth|id|session)[-_.]?token|(?:private|session|access)[-_.]?key|cookie|credential|x-goog-api-key/i;

/**
 * A name whose last word is `auth` (`auth`, `x-auth`, `proxy_auth`, `basicAuth`, `http.auth`), words split at
 * `-`, `_`, `.`, spaces and lower-to-upper case changes; `author`, `oauth` or `authMethod` are not.
 */
const AUTH_LAST_WORD = /(?:^|[-_.\s])(?:auth|Auth|AUTH)$|(?<=[a-z0-9])Auth$/;

/**
 * Values that look like secrets wherever they are: a bearer token (`Bearer …`), an OpenAI or Anthropic
 * style key (`sk-…`, `sk-ant-…`: 20 or more characters), a Stripe key (`sk_live_…`, `pk_test_…`), a Groq
 * (`gsk_…`) or Together (`tgp_v1_…`) key, a Google API key (`AIza…`), a GitHub token
 * (`ghp_…`, `github_pat_…`), a Slack token (`xoxb-…`), an AWS access key id (`AKIA…`), a JWT (`eyJ….….…`),
 * the password in a URL (`https://user:password@host`: the user stays). Each starts where no letter or
 * digit precedes it: after `_` too, so a key glued to a name (`ERR_ghp_…`, `api_key_sk-…`) is found (`\b`
 * takes `_` for a letter).
 */
const SECRET_VALUES: ReadonlyArray<[RegExp, string]> = [
  [/(?<![A-Za-z0-9])(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  // `sk-…` (OpenAI, Anthropic `sk-ant-…`): 20 or more key characters.
  [/(?<![A-Za-z0-9])(?:sk|pk|rk)-[A-Za-z0-9_-]{20,}/g, '[redacted]'],
  // Stripe (`sk_live_…`, `pk_test_…`, `rk_live_…`), Groq (`gsk_…`), Together (`tgp_v1_…`): the family's own
  // prefix and 16 or more key characters, so a snake_case name (`orders_pk_customer_email`) is none.
  [/(?<![A-Za-z0-9])(?:(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|gsk_[A-Za-z0-9]{20,}|tgp_v1_[A-Za-z0-9_-]{20,})/g, '[redacted]'],
  [/(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{20,}/g, '[redacted]'],
  [/(?<![A-Za-z0-9])(?:gh[pousr]_|github_pat_)[A-Za-z0-9_]{8,}/g, '[redacted]'],
  [/(?<![A-Za-z0-9])xox[abpr]-[A-Za-z0-9-]{8,}/g, '[redacted]'],
  [/(?<![A-Za-z0-9])AKIA[0-9A-Z]{12,}/g, '[redacted]'],
  [/(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]'],
  // The password of a URL's user info (`https://user:password@host`, `postgres://admin:…@db`): all of it up to the
  // last `@` before whitespace, a quote or the end, as a password may hold `/`, `?`, `#` or `@` unencoded
  // (`app:Zx9/Qk+3wE@db`, `app:p@ss@db`); a port (`host:8080/a@b`) is none.
  [/(?<![A-Za-z0-9])([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):(?![0-9]*(?:[/?#\s"'`<>]|$))[^\s"'`<>]*@/gi, '$1:[redacted]@'],
];

/**
 * Matches wherever any of {@link SECRET_VALUES} could (their fixed starts, case aside; a pattern added there adds
 * its start here): text without one
 * skips them all. Most error messages hold none, and one test costs a fifth of the eight patterns'.
 */
const MAY_HOLD_SECRET_VALUE = /[spr]k[-_]|tgp_|AIza|gh[pousr]_|github_pat_|xox[abpr]-|AKIA|eyJ|Bearer|Basic|:\/\//i;

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Whether `name` suggests a secret (`authorization`, `apiKey`, `api_key`, `password`, `pwd`, `auth`, `bearer`, `accessKey`, `accessToken`, `cookie`, `credential`, …). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || AUTH_LAST_WORD.test(name);
}

/** Whether `text` holds a value that looks like a secret (see {@link SECRET_VALUES}), or is already `[redacted]`. */
export function holdsSecretText(text: string): boolean {
  return text.trim() === REDACTED || redactSecretText(text) !== text;
}

/** `text` with every value that looks like a secret (see {@link SECRET_VALUES}) replaced by `[redacted]`. */
export function redactSecretText(text: string): string {
  let out = text;
  if (MAY_HOLD_SECRET_VALUE.test(text)) for (const [pattern, replacement] of SECRET_VALUES) out = out.replace(pattern, replacement);
  // A JSON-looking `"apiKey": "…"` inside text (a call's arguments written out) loses its value too.
  return out.replace(/"([^"\\]*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (whole, name: string, colon: string) => (isSecretName(name) ? `"${name}"${colon}"${REDACTED}"` : whole));
}

/**
 * The forms a known secret may come back in when a server echoes a request that carried it: as it is,
 * percent-encoded (`encodeURIComponent`), form-url-encoded (`+` for a space, as `URLSearchParams` writes it),
 * and base64 / base64url, on its own (a `Basic` header's value is the base64 of `id:secret`) or inside
 * the encoding of a longer text (a whole form body, `id:secret`; the secret as it is or form-encoded): for each of the three byte offsets the
 * secret may start at, the characters that encode its bytes only (those shared with its neighbours'
 * bytes are left out, so at most two bytes at either end stay visible). Values under 4 characters are
 * ignored (they would redact ordinary text).
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    const buffer = Buffer.from(secret);
    const written = [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
    for (const form of [...written, buffer.toString('base64'), buffer.toString('base64url')]) forms.add(form);
    // Percent-encoding with lower-case hex digits, as some servers write it back.
    forms.add(encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    // Inside the encoding of a longer text: the secret as it is or as a form body writes it.
    for (const form of new Set(written)) for (const encoded of embeddedBase64(Buffer.from(form))) forms.add(encoded);
  }
  // Longest first: a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The base64 and base64url characters that encode `bytes` alone, wherever they sit in a longer encoded
 * text: for a start at offset 0, 1 or 2 (mod 3), the 4-character groups made of the secret's bytes only.
 */
function embeddedBase64(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    // The first whole group starts at the next multiple of 3; the last ends at the last one within the secret.
    const skip = (3 - offset) % 3;
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole < 3) continue;
    const inner = bytes.subarray(skip, skip + whole);
    forms.push(inner.toString('base64'), inner.toString('base64url'));
  }
  return forms;
}

/**
 * `text` (what a server sent back: an `error_description`, a message) with every form of every one of
 * `secrets` (see {@link secretForms}: the secrets the request sent) replaced by `[redacted]`, and then
 * everything else that looks like a secret (see {@link redactSecretText}).
 */
export function redactKnownSecrets(text: string, secrets: Iterable<string | undefined>): string {
  const known = [...secrets];
  let out = text;
  for (const form of secretForms(known)) out = out.split(form).join(REDACTED);
  // A secret percent-encoded some other way (every byte, or only some characters as `encodeURI` does).
  if (out.includes('%')) for (const secret of known) if (secret !== undefined && secret.length >= 4) out = out.replace(anyPercentEncoding(secret), REDACTED);
  return redactSecretText(out);
}

/** Matches `secret` with each of its characters as it is or percent-encoded (either hex case; a space also as `+`). */
function anyPercentEncoding(secret: string): RegExp {
  const hexByte = (byte: number) =>
    '%' + [...byte.toString(16).padStart(2, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
  const character = (char: string) => {
    const encoded = [...Buffer.from(char)].map(hexByte).join('');
    const plain = char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return `(?:${plain}|${encoded}${char === ' ' ? '|\\+' : ''})`;
  };
  return new RegExp([...secret].map(character).join(''), 'g');
}

/**
 * A copy of `value` (JSON-like data) fit to show: the value of every secret-named property is `[redacted]`,
 * and secret-looking text in strings, property names included, is redacted (see {@link redactSecretText}). Other values are kept as they are.
 */
export function redactSecrets<T>(value: T): T {
  if (typeof value === 'string') return redactSecretText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item)) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const redacted = isSecretName(key) && item !== undefined ? REDACTED : redactSecrets(item);
    // An own `__proto__` key (JSON.parse and the JSON walk make them) stays a key, never the copy's prototype
    // (json-copy's setMember does the same; this folder sits below it).
    if (key === '__proto__') Object.defineProperty(out, key, { value: redacted, enumerable: true, writable: true, configurable: true });
    else out[redactSecretText(key)] = redacted;
  }
  return out as T;
}
