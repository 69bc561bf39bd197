import { type JsonWebKey, type KeyObject, constants, createPrivateKey, randomUUID, sign } from 'node:crypto';

/** The JWS algorithms a client assertion (`private_key_jwt`, RFC 7523) may be signed with. */
export type McpClientAssertionAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512';

/** The key type each algorithm needs, and for `ES*` the curve. */
const KEYS: Record<McpClientAssertionAlgorithm, { types: ReadonlyArray<string>; curve?: string }> = {
  RS256: { types: ['rsa'] },
  RS384: { types: ['rsa'] },
  RS512: { types: ['rsa'] },
  PS256: { types: ['rsa', 'rsa-pss'] },
  PS384: { types: ['rsa', 'rsa-pss'] },
  PS512: { types: ['rsa', 'rsa-pss'] },
  ES256: { types: ['ec'], curve: 'prime256v1' },
  ES384: { types: ['ec'], curve: 'secp384r1' },
  ES512: { types: ['ec'], curve: 'secp521r1' },
};

/** Whether `value` is one of the {@link McpClientAssertionAlgorithm}s. */
export function isClientAssertionAlgorithm(value: unknown): value is McpClientAssertionAlgorithm {
  return typeof value === 'string' && Object.hasOwn(KEYS, value);
}

/**
 * The private key that signs `algorithm`, from PKCS#8 PEM or a private JWK; throws a message naming
 * what is wrong (never the key itself).
 */
export function clientAssertionKey(privateKey: unknown, algorithm: McpClientAssertionAlgorithm): KeyObject {
  let key: KeyObject | undefined;
  try {
    if (typeof privateKey === 'string' && privateKey.includes('-----BEGIN PRIVATE KEY-----')) key = createPrivateKey(privateKey);
    else if (typeof privateKey === 'object' && privateKey !== null && typeof (privateKey as { d?: unknown }).d === 'string') {
      key = createPrivateKey({ key: privateKey as JsonWebKey, format: 'jwk' });
    }
  } catch {
    key = undefined;
  }
  if (!key) throw new Error('it is neither a PKCS#8 PEM private key ("-----BEGIN PRIVATE KEY-----") nor a private JWK');
  const wanted = KEYS[algorithm];
  const type = key.asymmetricKeyType ?? 'unknown';
  if (!wanted.types.includes(type)) throw new Error(`it is a ${type} key, which cannot sign ${algorithm}`);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (wanted.curve && curve !== wanted.curve) throw new Error(`it is an EC key on curve ${curve ?? 'unknown'}, and ${algorithm} needs ${wanted.curve}`);
  return key;
}

/**
 * A client assertion (RFC 7523 §2.2): a JWT with `iss` and `sub` the client id, `aud` the authorization
 * server (its issuer), a random `jti` and a five-minute life, signed with `key` (node's crypto).
 */
export function signClientAssertion(clientId: string, audience: string, key: KeyObject, algorithm: McpClientAssertionAlgorithm): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: algorithm, typ: 'JWT' })}.${encode({ iss: clientId, sub: clientId, aud: audience, iat: now, exp: now + 300, jti: randomUUID() })}`;
  const hash = `sha${algorithm.slice(2)}`;
  const signer = algorithm.startsWith('ES')
    ? { key, dsaEncoding: 'ieee-p1363' as const }
    : algorithm.startsWith('PS')
      ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : key;
  return `${input}.${sign(hash, Buffer.from(input), signer).toString('base64url')}`;
}
