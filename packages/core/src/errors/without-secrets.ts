import { REDACTED, secretForms } from '../redaction/secret-redaction';
import { ToolsmithError } from './toolsmith-error';

/**
 * `error` with every form of every one of `secrets` (as they are, percent- or form-encoded, base64 or
 * base64url, alone or inside a longer encoded text: see `secretForms`; values under 4 characters are
 * ignored) replaced by `[redacted]` in its `message`, its `details` (every string, keys included) and its
 * `stack`. `error` itself when none of them holds one; else a copy of the same class (its `cause`, which
 * no event, span or session stores, kept as it is). For the errors whose text may quote a secret the
 * runner knows: a credential it injected into a call, one it was handing to the credential service.
 */
export function withoutSecrets(error: ToolsmithError, secrets: Iterable<string>): ToolsmithError {
  const forms = secretForms(secrets);
  if (forms.length === 0) return error;
  const redact = (text: string): string => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
  const message = redact(error.message);
  const details = error.details === undefined ? undefined : redactData(error.details, redact);
  if (message === error.message && details === error.details) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as ToolsmithError;
  for (const key of Reflect.ownKeys(error)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key)!);
  Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true, enumerable: false });
  if (details !== undefined) Object.defineProperty(copy, 'details', { value: details, writable: false, configurable: true, enumerable: true });
  const stack = Object.getOwnPropertyDescriptor(error, 'stack');
  if (stack && typeof stack.value === 'string') Object.defineProperty(copy, 'stack', { ...stack, value: redact(stack.value) });
  return ToolsmithError.isInstance(copy) ? copy : error;
}

/** `value` (JSON-like data) with `redact` applied to every string and key; `value` itself when nothing changed. */
function redactData(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => redactData(item, redact));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const shownKey = redact(key);
    const shown = redactData(item, redact);
    if (shownKey !== key || shown !== item) changed = true;
    Object.defineProperty(out, shownKey, { value: shown, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/** True when `text` (an error's code) holds any form of any one of `secrets` (see `secretForms`). */
export function quotesSecret(text: string, secrets: Iterable<string>): boolean {
  return secretForms(secrets).some((form) => text.includes(form));
}
