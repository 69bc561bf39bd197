import { ToolsmithError } from './toolsmith-error';

/** A value written to session state is not plain JSON (a function, class instance, `Date`, cycle, …). */
export class StateValueError extends ToolsmithError {
  constructor(key: string, path: string, reason: string) {
    super(
      'INVALID_STATE_VALUE',
      `State key "${key}" cannot store this value: ${path ? `at ${path}, ` : ''}${reason}. ` +
        'State must be plain JSON (objects, arrays, strings, finite numbers, booleans, null) so sessions can be stored; ' +
        'convert it first (e.g. date.toISOString()).',
    );
  }
}
