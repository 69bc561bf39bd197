import { REDACTED, holdsSecretText, isSecretName, redactSecretText } from '@toolsmith/core/internal';
import type { EvalCase, ExpectedCall } from '@toolsmith/evals';

/**
 * Takes out of a recorded case every expected-call argument that looks like a secret (its name, or any
 * name or string value inside it, as core's secret redaction judges them): the argument is not written, and its call no longer requires
 * `exactArgs` (so the case still matches a replay that passes one); malformed arguments text (`argsText`)
 * holding secret-looking text is left out whole (`turn N: tool arguments`), and its call then checks no arguments
 * (only that it failed, as such a call does). An expected answer holding secret-looking
 * text becomes a pattern that is the answer with each such value replaced by "any text" (`turn N: answer` is
 * withheld). Returns the case to save and what was withheld, as `turn N: tool.argument`.
 */
export function withholdEvalSecrets(evalCase: EvalCase): { evalCase: EvalCase; withheld: string[] } {
  const withheld: string[] = [];
  const turns = evalCase.turns.map((turn, index) => {
    if (!turn.tools) return withholdAnswer(turn, index, withheld);
    const calls = turn.tools.calls.map((call): ExpectedCall => {
      // Malformed arguments text kept whole (`argsText`) is left out whole when it holds a secret.
      if (call.argsText !== undefined && holdsSecretText(call.argsText)) {
        withheld.push(`turn ${index + 1}: ${call.name} arguments`);
        // Such a call failed (no tool ran): the replay matches a call that fails again (docs/evals.md).
        return { name: call.name, failed: true };
      }
      if (!call.args) return call;
      const kept: NonNullable<ExpectedCall['args']> = {};
      let dropped = false;
      for (const [name, value] of Object.entries(call.args)) {
        if (isSecretName(name) || holdsSecret(value)) {
          withheld.push(`turn ${index + 1}: ${call.name}.${name}`);
          dropped = true;
        } else kept[name] = value;
      }
      return dropped ? { name: call.name, args: kept, ...(call.failed ? { failed: true } : {}) } : call;
    });
    return withholdAnswer({ ...turn, tools: { ...turn.tools, calls } }, index, withheld);
  });
  return { evalCase: { ...evalCase, turns }, withheld };
}

function holdsSecret(value: unknown): boolean {
  if (typeof value === 'string') return holdsSecretText(value);
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([name, inner]) => isSecretName(name) || holdsSecret(inner));
  return false;
}

/** `turn` with an exact answer holding secret-looking text turned into a pattern without it. */
function withholdAnswer<T extends EvalCase['turns'][number]>(turn: T, index: number, withheld: string[]): T {
  const exact = turn.answer?.exact;
  if (typeof exact !== 'string' || !holdsSecretText(exact)) return turn;
  withheld.push(`turn ${index + 1}: answer`);
  const pieces = redactSecretText(exact.trim()).split(REDACTED).map((piece) => piece.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return { ...turn, answer: { pattern: `^\\s*${pieces.join('.+')}\\s*$`, flags: 's' } };
}
