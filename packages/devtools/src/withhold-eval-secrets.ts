import type { EvalCase, ExpectedCall } from '@toolsmith/evals';

/** Argument names that suggest a secret (passwords, tokens, API keys, credentials, cookies, private keys). */
const SECRET_NAME = /pass(word|wd|phrase)?$|secret|token|api[-_.]?key|authorization|credential|cookie|private[-_.]?key|session[-_.]?key/i;
/** String values shaped like a secret: known key prefixes, a bearer header, a JWT, core's redaction mark. */
const SECRET_VALUE = /^(sk|pk|rk)[-_][A-Za-z0-9_-]{8,}|^(ghp|gho|ghs|github_pat|xox[abpr]|AKIA|AIza)[A-Za-z0-9_-]{8,}|^Bearer\s|^eyJ[A-Za-z0-9_-]{8,}\.|^\[redacted\]$/;

/**
 * Takes out of a recorded case every expected-call argument that looks like a secret (its name, or any
 * name or string value inside it): the argument is not written, and its call no longer requires
 * `exactArgs` (so the case still matches a replay that passes one). Returns the case to save and what was
 * withheld, as `turn N: tool.argument`.
 */
export function withholdEvalSecrets(evalCase: EvalCase): { evalCase: EvalCase; withheld: string[] } {
  const withheld: string[] = [];
  const turns = evalCase.turns.map((turn, index) => {
    if (!turn.tools) return turn;
    const calls = turn.tools.calls.map((call): ExpectedCall => {
      if (!call.args) return call;
      const kept: NonNullable<ExpectedCall['args']> = {};
      let dropped = false;
      for (const [name, value] of Object.entries(call.args)) {
        if (SECRET_NAME.test(name) || holdsSecret(value)) {
          withheld.push(`turn ${index + 1}: ${call.name}.${name}`);
          dropped = true;
        } else kept[name] = value;
      }
      return dropped ? { name: call.name, args: kept } : call;
    });
    return { ...turn, tools: { ...turn.tools, calls } };
  });
  return { evalCase: { ...evalCase, turns }, withheld };
}

function holdsSecret(value: unknown): boolean {
  if (typeof value === 'string') return SECRET_VALUE.test(value.trim());
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([name, inner]) => SECRET_NAME.test(name) || holdsSecret(inner));
  return false;
}
