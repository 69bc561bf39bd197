import { thrownMessage } from '../errors/thrown-message';
/**
 * The caller's `AbortSignal`, read only through `AbortSignal`'s and `EventTarget`'s own accessors and
 * methods: a signal's own `aborted` or `reason` getter, or a replaced `addEventListener`, is never called,
 * and nothing the runner reads from the signal can throw after the run has checked it (a throw inside an
 * abort listener would be rethrown by Node as an uncaught exception, ending the process).
 */
const ABORTED = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get!;
const REASON = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason')!.get!;
const { addEventListener, removeEventListener } = EventTarget.prototype;

/**
 * What is wrong with `value` as a run's signal (`undefined` when it is a real `AbortSignal` whose state
 * can be read): an object that only claims to be one (`Object.create(AbortSignal.prototype)`, a Proxy whose
 * traps throw) is refused before the run starts.
 */
export function callerSignalProblem(value: unknown): string | undefined {
  if (!(value instanceof AbortSignal)) return 'not an AbortSignal';
  try {
    if (ABORTED.call(value)) REASON.call(value);
    return undefined;
  } catch (thrown) {
    return `an AbortSignal that cannot be read (${thrownMessage(thrown)})`;
  }
}

/**
 * Aborts `controller` when `signal` does, until the returned function unlinks them; `undefined` when the
 * signal refuses the listener. The abort reason is read in a try: a signal whose reason cannot be read
 * aborts the run with what reading it threw.
 */
export function linkCallerSignal(signal: AbortSignal, controller: AbortController): (() => void) | undefined {
  const abort = () => controller.abort(readReason(signal));
  try {
    if (ABORTED.call(signal)) {
      abort();
      return noop;
    }
    addEventListener.call(signal, 'abort', abort, { once: true });
  } catch {
    return undefined;
  }
  return () => {
    try {
      removeEventListener.call(signal, 'abort', abort);
    } catch {
      // A signal that refuses it keeps a listener on a controller the run no longer uses: nothing to undo.
    }
  };
}

function readReason(signal: AbortSignal): unknown {
  try {
    return REASON.call(signal);
  } catch (thrown) {
    return thrown;
  }
}

function noop(): void {}
