import { parseRetryAfter } from './parse-retry-after';

describe('parseRetryAfter', () => {
  it('reads retry-after-ms first', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500.4', 'retry-after': '9' }))).toBe(1500);
  });

  it('reads retry-after in seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter({ 'Retry-After': '0.5' })).toBe(500);
    expect(parseRetryAfter({ 'retry-after': ['3', '4'] })).toBe(3000);
  });

  it('reads retry-after as an HTTP date', () => {
    const now = Date.parse('Sun, 22 Nov 2026 10:00:00 GMT');
    expect(parseRetryAfter({ 'retry-after': 'Sun, 22 Nov 2026 10:00:07 GMT' }, now)).toBe(7000);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 22 Nov 2026 09:00:00 GMT' }, now)).toBe(0);
  });

  it('falls back to retry-after when retry-after-ms is unreadable', () => {
    expect(parseRetryAfter({ 'retry-after-ms': 'soon', 'retry-after': '1' })).toBe(1000);
  });

  it('returns undefined for missing, empty, negative or garbage values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-5' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'whenever' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': null })).toBeUndefined();
  });

  it('counts only a decimal number or an HTTP date: anything else says nothing, and an unreadable retry-after-ms leaves the word to retry-after', () => {
    const now = Date.parse('Fri, 27 Nov 2026 10:00:00 GMT');
    for (const value of ['2, 3', '0x10', '1e3', 'Infinity', 'NaN', '5 seconds', '120s', 'tomorrow 2', ' ', '+3', '-0']) {
      expect(parseRetryAfter({ 'retry-after': value }, now)).toBeUndefined();
    }
    for (const ms of ['', '  ', 'NaN', '1e400', '0x10', '-5']) expect(parseRetryAfter({ 'retry-after-ms': ms, 'retry-after': '4' }, now)).toBe(4000);
    expect(parseRetryAfter({ 'retry-after-ms': '  ' }, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'Friday, 27-Nov-26 10:00:05 GMT' }, now)).toBe(5000);
    expect(parseRetryAfter({ 'retry-after': 'Fri Nov 27 10:00:03 2026' }, now)).toBe(3000);
  });

  it('clamps absurd values to one day', () => {
    expect(parseRetryAfter({ 'retry-after': '99999999' })).toBe(24 * 60 * 60 * 1000);
  });
});
