import { ProviderError, ToolsmithError } from '@toolsmith/core';
import { recordError, replayedError } from './recorded-error';

describe('recordError', () => {
  it("records a provider error's code, message, provider and status, and replays it as one", () => {
    const recorded = recordError(new ProviderError('RATE_LIMITED', 'Too many requests.', { provider: 'openai', statusCode: 429 }));
    expect(recorded).toEqual({ code: 'RATE_LIMITED', message: 'Too many requests.', provider: 'openai', statusCode: 429 });
    expect(replayedError(recorded)).toMatchObject({ code: 'RATE_LIMITED', provider: 'openai', statusCode: 429 });
  });

  it.each([
    ['whose code getter throws', () => ({ [Symbol.for('toolsmith.error')]: true, get code(): string { throw new Error('no code'); }, message: 'm' })],
    ['with a blank code', () => new ToolsmithError(' ' as never, 'm')],
    ['that is a revoked Proxy', () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; }],
    ['without a prototype', () => Object.create(null)],
    [
      'whose code answers well once, then throws',
      () => {
        const error = new ToolsmithError('GOOD_CODE' as never, 'm');
        let reads = 0;
        Object.defineProperty(error, 'code', {
          get: () => {
            if (++reads > 1) throw new Error('code boom');
            return 'GOOD_CODE';
          },
        });
        return error;
      },
    ],
  ])('records a thrown value %s as INTERNAL_ERROR by its text, never throwing', (_, thrown) => {
    const recorded = recordError(thrown());
    expect(recorded.code).toBe('INTERNAL_ERROR');
    expect(typeof recorded.message).toBe('string');
    expect(JSON.parse(JSON.stringify(recorded))).toEqual(recorded);
  });
});
