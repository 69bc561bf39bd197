import { providerErrorCodeForStatus } from './status-code';

describe('providerErrorCodeForStatus', () => {
  it.each([
    [401, 'AUTHENTICATION_FAILED'],
    [403, 'AUTHENTICATION_FAILED'],
    [429, 'RATE_LIMITED'],
    [400, 'BAD_REQUEST'],
    [404, 'BAD_REQUEST'],
    [413, 'BAD_REQUEST'],
    [422, 'BAD_REQUEST'],
    [500, 'SERVER_ERROR'],
    [502, 'SERVER_ERROR'],
    [503, 'PROVIDER_OVERLOADED'],
    [529, 'PROVIDER_OVERLOADED'],
    [408, 'PROVIDER_ERROR'],
    [409, 'PROVIDER_ERROR'],
  ])('maps %i to %s', (status, code) => {
    expect(providerErrorCodeForStatus(status)).toBe(code);
  });
});
