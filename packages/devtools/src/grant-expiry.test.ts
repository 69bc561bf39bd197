import { grantExpiry } from './page/grant-expiry';

describe('grantExpiry: the minutes typed for an "always allow" become a whole ms expiry', () => {
  const now = 1_790_000_000_123;

  it('rounds fractional minutes to a whole number of ms (a grant refuses anything else)', () => {
    expect(grantExpiry('0.3333333', now)).toBe(now + 20_000); // 19,999.998 ms
    expect(grantExpiry(' 1.5 ', now)).toBe(now + 90_000);
    expect(Number.isInteger(grantExpiry('0.00001', now))).toBe(true);
    expect(grantExpiry('60', now)).toBe(now + 3_600_000);
  });

  it('is undefined (never) for an empty text, and explains a text that is no usable expiry', () => {
    expect(grantExpiry('  ', now)).toBeUndefined();
    for (const text of ['0', '-5', 'soon', 'Infinity', 'NaN']) expect(grantExpiry(text, now)).toBe('The expiry must be a number of minutes above 0, or empty for never.');
    expect(grantExpiry('1e300', now)).toBe('1e300 minutes is too far away: give fewer minutes, or none for never.');
  });
});
