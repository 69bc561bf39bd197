/**
 * Why an argument matcher of an expected call can never mean what it seems to (see `ArgumentMatcher`),
 * or `undefined` when it is one: a `RegExp` or a function as the whole argument; `{ $pattern, $flags? }`
 * and `{ $equals }` with no other key; otherwise a JSON value, compared by equality, so it holds no
 * `undefined`, no number JSON cannot write (`NaN`, `Infinity`), no `Date` or other class instance, and no
 * `RegExp`, function or `$pattern`/`$equals` object inside it (a matcher is only ever a whole argument;
 * inside a value it would be compared as it is, and never match). The pattern itself is checked by the caller.
 */
export function matcherProblem(matcher: unknown): string | undefined {
  if (typeof matcher === 'function' || matcher instanceof RegExp) return undefined;
  if (isPlainObject(matcher) && ('$pattern' in matcher || '$equals' in matcher)) {
    const allowed = '$pattern' in matcher ? ['$pattern', '$flags'] : ['$equals'];
    const others = Object.keys(matcher).filter((key) => !allowed.includes(key));
    if (others.length) return `has ${others.join(', ')} beside ${allowed.join(' and ')}: a matcher has no other key (to expect an object with such keys, write { "$equals": … } around it)`;
    if ('$pattern' in matcher) return undefined;
    return valueProblem(matcher.$equals, '$equals', true);
  }
  return valueProblem(matcher, '', false);
}

/** Why `value` is not a JSON value equality can match (`path` says where inside the argument), or `undefined`. */
function valueProblem(value: unknown, path: string, literal: boolean): string | undefined {
  const at = path ? ` at ${path}` : '';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `holds ${String(value)}${at}, which JSON cannot hold: no argument is ever equal to it`;
  if (value === undefined) return `is undefined${at}: no argument is ever undefined (leave it out, or expect null)`;
  if (value instanceof RegExp || typeof value === 'function') {
    return `holds a ${value instanceof RegExp ? 'RegExp' : 'function'}${at}: a matcher must be the whole argument; inside a value it is compared by equality and never matches`;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = valueProblem(item, `${path}[${i}]`, literal);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return `holds ${describe(value)}${at}, which is not JSON: no argument is ever equal to it`;
  if (!literal && path && ('$pattern' in value || '$equals' in value)) {
    return `holds an object with a $pattern or $equals key${at}: a matcher must be the whole argument (to expect such an object, write { "$equals": … } around the whole argument)`;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = valueProblem(item, path ? `${path}.${key}` : key, literal);
    if (problem) return problem;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value === 'symbol') return 'a symbol';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name ? `a ${name}` : 'an object that is not plain';
}

/** An object literal's kind, of any realm (arguments parsed elsewhere, such as under jest, have another `Object.prototype`). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || (Object.getPrototypeOf(prototype) === null && Object.prototype.toString.call(value) === '[object Object]');
}
