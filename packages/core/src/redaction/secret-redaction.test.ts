import { holdsSecretText, isSecretName, redactKnownSecrets, redactSecretText, redactSecrets } from './secret-redaction';

describe('secret redaction', () => {
  it('knows secret names, and leaves token counts alone', () => {
    for (const name of ['authorization', 'apiKey', 'api_key', 'x-goog-api-key', 'password', 'clientSecret', 'accessToken', 'refresh_token', 'cookie', 'credential']) expect(isSecretName(name)).toBe(true);
    for (const name of ['token', 'githubToken', 'csrf_token', 'passphrase', 'privateKey', 'session_key']) expect(isSecretName(name)).toBe(true);
    for (const name of ['gen_ai.usage.input_tokens', 'maxOutputTokens', 'orderId', 'amount', 'url', 'pass', 'passed', 'compass', 'tokenizer']) expect(isSecretName(name)).toBe(false);
  });

  it('knows pwd, auth (as the last word), bearer and access keys; author, oauth and authMethod are no secrets', () => {
    for (const name of ['pwd', 'userPwd', 'auth', 'x-auth', 'proxy_auth', 'basicAuth', 'X_AUTH', 'bearer', 'accessKey', 'access_key', 'aws.access-key']) expect(isSecretName(name)).toBe(true);
    for (const name of ['author', 'authority', 'oauth', 'OAuth', 'authMethod', 'auth_type', 'keyword']) expect(isSecretName(name)).toBe(false);
  });

  it('redacts the password of a URL, keeping the user, host and port', () => {
    expect(redactSecretText('connect to postgres://admin:hunter2@db.example:5432/app or https://u:p@host/x'))
      .toBe('connect to postgres://admin:[redacted]@db.example:5432/app or https://u:[redacted]@host/x');
    expect(redactSecretText('https://host:8080/a@b and https://user@host/')).toBe('https://host:8080/a@b and https://user@host/');
    expect(holdsSecretText('https://u:p@host')).toBe(true);
  });

  it('redacts all of a URL password that holds `/`, `?`, `#` or `@` unencoded, up to the last `@` before a space or quote', () => {
    expect(redactSecretText('connect failed: postgres://app:Zx9/Qk+3wE@db:5432/app')).toBe('connect failed: postgres://app:[redacted]@db:5432/app');
    expect(redactSecretText('connect failed: postgres://app:p@ssw0rd@db:5432/app')).toBe('connect failed: postgres://app:[redacted]@db:5432/app');
    expect(redactSecretText('connect failed: mongodb://app:pa#ss99@db/app, mail ops@example.com')).toBe('connect failed: mongodb://app:[redacted]@db/app, mail ops@example.com');
    expect(redactSecretText('dsn "redis://:a?b/c@cache:6379" or redis://u:12345@cache')).toBe('dsn "redis://:[redacted]@cache:6379" or redis://u:[redacted]@cache');
    expect(redactSecretText('https://host:8080/a@b')).toBe('https://host:8080/a@b');
  });

  it('knows GitHub, Slack and AWS keys and JWTs, and the redaction mark, as secret-holding text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    expect(redactSecretText(`a ghp_abcdefgh1234 b github_pat_11AB_cdefgh c xoxb-1234-abcdefgh d AKIAABCDEFGHIJKLMNOP e ${jwt}`)).toBe('a [redacted] b [redacted] c [redacted] d [redacted] e [redacted]');
    for (const text of ['sk-live-0123456789abcdef', 'see Bearer 0123456789abcdef', jwt, ' [redacted] ']) expect(holdsSecretText(text)).toBe(true);
    for (const text of ['db.internal', 'eyJ alone', 'AKIA', 'the skill set-up']) expect(holdsSecretText(text)).toBe(false);
  });

  it('finds each kind of key alone and glued to a name by `_`, `.`, `:` or `-`, and leaves words that only contain one', () => {
    const k = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    const keys = [`sk-proj-${k}`, `sk_live_${k}`, `rk-${k}`, `ghp_${k.slice(0, 36)}`, `github_pat_${k}`, 'AKIAIOSFODNN7EXAMPLE', `xoxb-1234567890-${k}`, `AIza${k.slice(0, 35)}`, `eyJ${k}.eyJzdWIiOiIxIn0.c2ln`];
    for (const key of keys) {
      for (const prefix of ['', 'X_', 'ERR_', 'api_key_', 'X.', 'X:', 'X-']) {
        expect(holdsSecretText(`${prefix}${key}`)).toBe(true);
        expect(redactSecretText(`failed: ${prefix}${key} refused`)).toBe(`failed: ${prefix}[redacted] refused`);
      }
      // A letter or digit before it: part of a longer word, not a key.
      expect(holdsSecretText(`X${key}`)).toBe(false);
      expect(holdsSecretText(`9${key}`)).toBe(false);
    }
    expect(redactSecretText('dsn=X_postgres://admin:hunter2@db/x')).toBe('dsn=X_postgres://admin:[redacted]@db/x');
    expect(redactSecretText('auth failed: Bearer_x Basic abcdefgh12 X_Bearer 0123456789abcdef')).toBe('auth failed: Bearer_x Basic [redacted] X_Bearer [redacted]');
    for (const code of ['TOOL_EXECUTION_FAILED', 'RISK_ASSESSMENT_FAILED', 'TASK_TIMEOUT', 'ghost_town_error', 'E_AKIA']) expect(holdsSecretText(code)).toBe(false);
  });

  it('needs a key of its family\'s shape after `_`: snake_case names and codes that hold `pk_`, `sk_` or `rk_` are none', () => {
    for (const text of ['orders_pk_customer_email', 'db_pk_violation_duplicate', 'dynamo_sk_missing_attribute', 'gsi1_sk_created_at', 'E_rk_overflow_counter', 'ERR_sk_timeout_exceeded', 'my_sk_learn_pipeline', 'orders.pk_conflict_detected', 'route /api/v1/task-sk-migration/12345678', 'sk-short-0123456789', 'sk_live_short1']) {
      expect(holdsSecretText(text)).toBe(false);
    }
    expect(redactSecretText('duplicate key value violates unique constraint "orders_pk_customer_email"')).toBe('duplicate key value violates unique constraint "orders_pk_customer_email"');
    // Groq's and Together's keys, alone and glued by `_`; a letter before them is part of a longer word.
    const k = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmn';
    for (const key of [`gsk_${k}`, `tgp_v1_${k}`, `pk_test_${k.slice(0, 24)}`, `rk_live_${k.slice(0, 24)}`]) {
      for (const prefix of ['', 'X_', 'ERR_']) expect(redactSecretText(`failed: ${prefix}${key} refused`)).toBe(`failed: ${prefix}[redacted] refused`);
      expect(holdsSecretText(`X${key}`)).toBe(false);
    }
  });

  it('redacts bearer tokens, API keys and secret-named JSON values in text', () => {
    expect(redactSecretText('Authorization: Bearer abc.def-ghi_jkl refused')).toBe('Authorization: Bearer [redacted] refused');
    expect(redactSecretText('keys sk-live-0123456789abcdef, sk-ant-api03-abcdefgh1234, AIzaSyA-0123456789abcdefghij')).toBe('keys [redacted], [redacted], [redacted]');
    expect(redactSecretText('call({"url":"u","apiKey":"plain value"})')).toBe('call({"url":"u","apiKey":"[redacted]"})');
    expect(redactSecretText('the skill set-up')).toBe('the skill set-up');
  });

  it('copies data with secret-named values redacted, however deep, and keeps everything else', () => {
    const data = { url: 'u', headers: { Authorization: 'x', accept: 'json' }, list: [{ password: 1 }, 'Bearer 0123456789abcdef'], pattern: /a/ };
    expect(redactSecrets(data)).toEqual({ url: 'u', headers: { Authorization: '[redacted]', accept: 'json' }, list: [{ password: '[redacted]' }, 'Bearer [redacted]'], pattern: /a/ });
    expect(data.headers.Authorization).toBe('x');
    // A key-shaped property name is redacted too.
    expect(redactSecrets({ keys: { 'sk-live-abcdefgh12345678': 'owner', plain: 1 } })).toEqual({ keys: { '[redacted]': 'owner', plain: 1 } });
  });

  it('redacts known secrets as they are, percent- and form-url-encoded, and base64', () => {
    const secret = 'p@ss w0rd+/=SECRET';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c p%40ss+w0rd%2B%2F%3DSECRET d p%40ss%20w0rd%2b%2f%3dSECRET e ${Buffer.from(secret).toString('base64')} f`;
    expect(redactKnownSecrets(text, [secret, undefined, 'ab'])).toBe('a [redacted] b [redacted] c [redacted] d [redacted] e [redacted] f');
  });

  it('redacts a known secret percent-encoded any other way: every byte, only some characters (encodeURI), mixed hex case', () => {
    const every = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
    for (const secret of ['Cc5Rt8Yu1Io4Pa7Sd0Fg', "Ab/Cd+Ef=Gh Ij&Kl%Mn~Op!Qr*St'Uv(Wx)Yz", 'pä$$wörd-ü']) {
      const forms = [every(secret), every(secret).toLowerCase(), encodeURI(secret), encodeURIComponent(secret).replace(/%2F/g, '%2f'), `${secret.slice(0, 2)}${every(secret.slice(2, 6))}${secret.slice(6)}`];
      const text = forms.map((form, i) => `${i}=<${form}>`).join(' ');
      expect(redactKnownSecrets(text, [secret])).toBe(forms.map((_, i) => `${i}=<[redacted]>`).join(' '));
    }
    // Other percent-encoded text is left as it is.
    expect(redactKnownSecrets('path=%2Fhome%2Fann q=a%20b', ['Cc5Rt8Yu1Io4Pa7Sd0Fg'])).toBe('path=%2Fhome%2Fann q=a%20b');
  });
});

describe('redactSecrets: an own "__proto__" key', () => {
  it('stays a key of the copy, never its prototype', () => {
    const copy = redactSecrets(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
  });
});
