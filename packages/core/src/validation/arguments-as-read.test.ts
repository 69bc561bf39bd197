import type { FunctionCall, FunctionResponse } from '../model/content';
import { argumentsAsRead } from './arguments-as-read';

const call = (args: FunctionCall['args']): FunctionCall => ({ id: 'c1', name: 'lookup', args });
const answered = (repairs?: FunctionResponse['argumentRepairs']): FunctionResponse => ({ id: 'c1', name: 'lookup', response: { ok: true }, ...(repairs ? { argumentRepairs: repairs } : {}) });

describe('argumentsAsRead', () => {
  it('gives an object as it is and parses JSON text as the executor does', () => {
    const args = { orderId: 'A-1' };
    expect(argumentsAsRead(call(args))).toBe(args);
    expect(argumentsAsRead(call('{"orderId":"A-1"}'))).toEqual({ orderId: 'A-1' });
    expect(argumentsAsRead(call('  '))).toEqual({});
  });

  it('redoes a text repair only when the executor made one', () => {
    const fenced = '```json\n{"orderId":"A-1",}\n```';
    expect(argumentsAsRead(call(fenced), answered([{ repair: 'code-fence', path: '' }, { repair: 'trailing-comma', path: '' }]))).toEqual({ orderId: 'A-1' });
    // Repairs turned off: the executor refused the text and no tool ran.
    expect(argumentsAsRead(call(fenced), answered())).toBe(fenced);
    expect(argumentsAsRead(call(fenced))).toBe(fenced);
  });

  it('keeps text the executor refused: malformed, not an object, a forbidden key', () => {
    for (const text of ['{"orderId": "A-', '[1]', '{"__proto__":{"x":1}}']) expect(argumentsAsRead(call(text), answered())).toBe(text);
  });
});

describe('argumentsAsRead with value repairs', () => {
  it('makes again the value repairs the response lists, on a copy', () => {
    const args = { count: '5', flag: 'TRUE', filter: '{"a":{"n":"2"}}', size: 'LARGE', note: null, tags: ['x'] };
    const response = answered([
      { repair: 'string-to-number', path: '/count' },
      { repair: 'string-to-boolean', path: '/flag' },
      { repair: 'double-encoded-property', path: '/filter' },
      { repair: 'string-to-number', path: '/filter/a/n' },
      { repair: 'enum-case', path: '/size', value: 'large' },
      { repair: 'null-for-optional', path: '/note' },
    ]);
    expect(argumentsAsRead(call(args), response)).toEqual({ count: 5, flag: true, filter: { a: { n: 2 } }, size: 'large', tags: ['x'] });
    expect(args.count).toBe('5');
    expect(argumentsAsRead(call(JSON.stringify(args)), response)).toEqual({ count: 5, flag: true, filter: { a: { n: 2 } }, size: 'large', tags: ['x'] });
  });

  it('after a text repair too, and skips what the record does not fit', () => {
    const fenced = '```json\n{"count":"5","a/b":"7",}\n```';
    const response = answered([{ repair: 'code-fence', path: '' }, { repair: 'trailing-comma', path: '' }, { repair: 'string-to-number', path: '/count' }, { repair: 'string-to-number', path: '/a~1b' }, { repair: 'string-to-number', path: '/missing/x' }, { repair: 'enum-case', path: '/count' }]);
    expect(argumentsAsRead(call(fenced), response)).toEqual({ count: 5, 'a/b': 7 });
  });
});
