import { TokenEndpointUnavailableError, TokenRequestError } from './auth-errors';

// A token request's errors reach the model and the session (message and details): a token URL's query and user
// info (an API key, a password) must be in neither. The error's own `tokenUrl` stays whole for the developer.
describe('token endpoint errors name the endpoint by origin and path only', () => {
  const tokenUrl = 'https://user:USERINFO-PASS@auth.example/oauth/token?api_key=QUERY-SECRET#frag';
  const shown = (error: { message: string; details?: unknown }) => `${error.message} ${JSON.stringify(error.details)}`;

  it('AUTH_TOKEN_REQUEST_FAILED', () => {
    const error = new TokenRequestError(tokenUrl, 'client_credentials', 400, 'invalid_client');
    expect(error.details).toEqual({ tokenUrl: 'https://auth.example/oauth/token', grantType: 'client_credentials', status: 400, oauthError: 'invalid_client' });
    expect(shown(error)).not.toMatch(/USERINFO-PASS|QUERY-SECRET|frag|user:/);
    expect(error.tokenUrl).toBe(tokenUrl);
  });

  it('AUTH_TOKEN_ENDPOINT_UNAVAILABLE', () => {
    const error = new TokenEndpointUnavailableError(tokenUrl, 503);
    expect(error.details).toEqual({ tokenUrl: 'https://auth.example/oauth/token', status: 503 });
    expect(shown(error)).not.toMatch(/USERINFO-PASS|QUERY-SECRET|frag|user:/);
  });
});
