import {
  SignJWT,
  errors as joseErrors,
  exportJWK,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';

/**
 * The keys that sign and verify every JWT the backend issues or accepts:
 * user access tokens, the anon and service-role keys, signed URLs.
 */

export type SigningAlgorithm = 'ES256' | 'RS256' | 'HS256';
const SIGNING_ALGORITHMS: readonly string[] = ['ES256', 'RS256', 'HS256'];

interface VerificationKey {
  kid: string | undefined;
  alg: SigningAlgorithm;
  key: CryptoKey | Uint8Array;
}

export interface SigningKey {
  kid: string | undefined;
  alg: SigningAlgorithm;
  key: CryptoKey | Uint8Array;
}

export class JwtVerificationError extends Error {
  override name = 'JwtVerificationError';
  constructor(
    message: string,
    readonly reason: 'malformed' | 'expired' | 'signature' | 'unknown-key' | 'claims',
  ) {
    super(message);
  }
}

export interface KeyRing {
  readonly algorithm: SigningAlgorithm;
  /** Signs claims; `expiresInSeconds` sets `exp` from now. */
  sign(claims: JWTPayload, options?: { expiresInSeconds?: number }): Promise<string>;
  /** Verifies signature and expiry; throws JwtVerificationError. */
  verify(token: string): Promise<JWTPayload>;
  /** The public halves of the asymmetric keys (HS256 secrets are never listed). */
  publicJwks(): { keys: JWK[] };
}

/**
 * An OpenID Connect ID token (the OAuth server's, decision 041): it names a
 * client and no session. It proves to that client who signed in; it is signed by
 * the same keys as access tokens, so every verifier refuses it, or it would act
 * as the user (its `sub`) on the auth, data, storage and realtime APIs, and
 * outlive the revocation of the grant, which ends sessions.
 */
export function isIdToken(claims: JWTPayload): boolean {
  return (
    claims.client_id !== undefined &&
    (typeof claims.session_id !== 'string' || claims.session_id === '')
  );
}

export function isSigningAlgorithm(value: unknown): value is SigningAlgorithm {
  return typeof value === 'string' && SIGNING_ALGORITHMS.includes(value);
}

function algorithmOf(jwk: JWK): SigningAlgorithm {
  const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : jwk.kty === 'RSA' ? 'RS256' : 'HS256');
  if (!isSigningAlgorithm(alg)) throw new Error(`unsupported JWK alg "${alg}"`);
  return alg;
}

/** Key usages come from the key itself; `key_ops` on a stored JWK would make WebCrypto refuse it. */
function withoutKeyOps(jwk: JWK): JWK {
  const { key_ops: _keyOps, use: _use, ...rest } = jwk;
  return rest;
}

/** The key that checks signatures: the public half, or the shared secret of an `oct` key. */
export async function importVerificationJwk(jwk: JWK): Promise<VerificationKey> {
  const alg = algorithmOf(jwk);
  const material = jwk.kty === 'oct' ? jwk : (publicPart(jwk) ?? jwk);
  const key = await importJWK({ ...withoutKeyOps(material), alg }, alg);
  return { kid: jwk.kid, alg, key };
}

export async function importSigningJwk(jwk: JWK): Promise<SigningKey> {
  const alg = algorithmOf(jwk);
  if (jwk.kty !== 'oct' && jwk.d === undefined) throw new Error('the JWK has no private part');
  const key = await importJWK({ ...withoutKeyOps(jwk), alg }, alg);
  return { kid: jwk.kid, alg, key };
}

export function publicPart(jwk: JWK): JWK | undefined {
  if (jwk.kty === 'oct') return undefined;
  const {
    d: _d,
    p: _p,
    q: _q,
    dp: _dp,
    dq: _dq,
    qi: _qi,
    oth: _oth,
    key_ops: _keyOps,
    ...rest
  } = jwk;
  return { ...rest, key_ops: ['verify'] };
}

export function createKeyRing(
  signing: SigningKey,
  verification: VerificationKey[],
  publicJwks: JWK[],
): KeyRing {
  return {
    algorithm: signing.alg,
    async sign(claims, options = {}) {
      const header: JWTHeaderParameters = { alg: signing.alg, typ: 'JWT' };
      if (signing.kid) header.kid = signing.kid;
      const jwt = new SignJWT(claims).setProtectedHeader(header);
      if (claims.iat === undefined) jwt.setIssuedAt();
      if (options.expiresInSeconds !== undefined) {
        jwt.setExpirationTime(Math.floor(Date.now() / 1000) + options.expiresInSeconds);
      }
      return jwt.sign(signing.key);
    },
    async verify(token) {
      if (token.split('.').length !== 3) {
        throw new JwtVerificationError('token is malformed', 'malformed');
      }
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            const candidates = verification.filter(
              (candidate) =>
                candidate.alg === header.alg && (header.kid ? candidate.kid === header.kid : true),
            );
            const match =
              candidates.find((candidate) => candidate.kid === header.kid) ?? candidates[0];
            if (!match) {
              throw new JwtVerificationError(
                header.kid
                  ? `no key with kid "${header.kid}" and alg "${header.alg}"`
                  : `no key for alg "${header.alg}"`,
                'unknown-key',
              );
            }
            return match.key;
          },
          { algorithms: [...SIGNING_ALGORITHMS] },
        );
        if (isIdToken(payload)) {
          throw new JwtVerificationError('an ID token is not a bearer token', 'claims');
        }
        return payload;
      } catch (error) {
        throw toVerificationError(error);
      }
    },
    publicJwks() {
      return { keys: publicJwks };
    },
  };
}

function toVerificationError(error: unknown): JwtVerificationError {
  if (error instanceof JwtVerificationError) return error;
  if (error instanceof joseErrors.JWTExpired) {
    return new JwtVerificationError('token has expired', 'expired');
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new JwtVerificationError('signature is invalid', 'signature');
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new JwtVerificationError(error.message, 'claims');
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return new JwtVerificationError('signing method is not allowed', 'signature');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new JwtVerificationError(message, 'malformed');
}

export async function exportPrivateJwk(key: CryptoKey): Promise<JWK> {
  return exportJWK(key);
}
