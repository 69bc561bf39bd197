import { AGENT_NAME } from './agent-name';
import { StateConflictError } from '../errors/state-conflict-error';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { EventActions } from './event-actions';
import { jsonEqual } from './state-ops';
import { ownStateValue, setStateKey } from './state-keys';

/**
 * Folds one call's actions into the step's, the calls taken in the order the model made them: a plain
 * write overrides an earlier one (last writer wins), increments of one key add up, and an update that
 * follows an earlier call's update of its key applies on top of it, the earlier condition kept (so the
 * store still checks it). Returns the error that answers the call instead, merging nothing of it, when
 * its update cannot follow the earlier one: a compare-and-set expecting another value than the earlier
 * call wrote (or following an increment, whose result only the store knows), or an increment of a value
 * that is not a number. Also how a model callback's writes become its call's once the callback settled (flow/model-call.ts):
 * folded into fresh actions, so what the callback's context writes later lands on nothing the event holds.
 * A `transferToAgent` that is no agent name (a number, a BigInt, an object) is refused the same way, with
 * `AGENT_NOT_FOUND`: every session store then stores the same (nothing of the call), none fails on it.
 */
export function mergeActions(into: EventActions, from: EventActions): ToolsmithError | undefined {
  const transfer: unknown = from.transferToAgent;
  if (transfer !== undefined && (typeof transfer !== 'string' || !AGENT_NAME.test(transfer))) return notAnAgentName(transfer);
  const ops = from.stateOps;
  if (ops) {
    for (const key of Object.keys(ops)) {
      if (!Object.prototype.hasOwnProperty.call(into.stateDelta, key)) continue;
      const earlier = ownStateValue(into.stateOps, key);
      const value = into.stateDelta[key] ?? null;
      if (ops[key].op === 'compareAndSet') {
        const { expected } = ops[key] as { expected: unknown };
        if (earlier?.op === 'increment') return new StateConflictError(key, expected ?? null, 'the result of an increment in the same step');
        if (!jsonEqual(value, expected ?? null)) return new StateConflictError(key, expected ?? null, value);
      } else if (earlier?.op !== 'increment' && value !== null && typeof value !== 'number') {
        return new StateConflictError(key, 'a number', value);
      }
    }
  }
  // `for in` over the own keys: no array of keys made for the usual call, which writes no state.
  for (const key in from.stateDelta) {
    if (!Object.prototype.hasOwnProperty.call(from.stateDelta, key)) continue;
    const op = ownStateValue(ops, key);
    const earlier = ownStateValue(into.stateOps, key);
    const followsWrite = Object.prototype.hasOwnProperty.call(into.stateDelta, key);
    if (op?.op === 'increment' && followsWrite) {
      const by = op.by;
      setStateKey(into.stateDelta, key, ((into.stateDelta[key] as number | null) ?? 0) + by);
      // Two increments add up; on top of a plain write or a compare-and-set, that write (and its condition) stays.
      if (earlier?.op === 'increment') setStateKey(into.stateOps!, key, { op: 'increment', by: earlier.by + by });
      continue;
    }
    setStateKey(into.stateDelta, key, from.stateDelta[key]);
    if (op && followsWrite) continue; // a compare-and-set checked above against the earlier write: its condition is that write's
    if (op) setStateKey((into.stateOps ??= {}), key, op);
    else if (earlier?.op === 'increment') {
      // A later plain write replaces the increment's result (last writer wins); a condition stays checked.
      delete into.stateOps![key];
      if (Object.keys(into.stateOps!).length === 0) delete into.stateOps;
    }
  }
  Object.assign(into.artifactDelta, from.artifactDelta);
  if (from.transferToAgent !== undefined) into.transferToAgent = from.transferToAgent;
  if (from.escalate) into.escalate = true;
  if (from.skipSummarization) into.skipSummarization = true;
  if (from.requestedToolConfirmations) {
    into.requestedToolConfirmations = { ...into.requestedToolConfirmations, ...from.requestedToolConfirmations };
  }
}

/** The error for a `transferToAgent` that is no agent name: it names no agent of any tree. */
function notAnAgentName(value: unknown): ToolsmithError {
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value) : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return new ToolsmithError(
    'AGENT_NOT_FOUND',
    `actions.transferToAgent must be an agent name (1–64 letters, digits, "_" or "-"), not ${shown}. Nothing of this call's actions was kept.`,
  );
}
