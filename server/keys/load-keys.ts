import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';
import type { Config } from '../config';
import { ConfigError } from '../config';
import {
  createKeyRing,
  importSigningJwk,
  importVerificationJwk,
  publicPart,
  type KeyRing,
  type SigningKey,
} from './key-ring';

/**
 * Resolves the key ring and the two API keys. Precedence:
 * JWT_KEYS (a JWK set) > JWT_SECRET (HS256) > an ES256 key generated on first
 * start and kept in DATA_DIR/keys.json (mode 0600). ANON_KEY / SERVICE_ROLE_KEY
 * override the minted API keys and must verify against the ring.
 */

export interface Keys {
  ring: KeyRing;
  anonKey: string;
  serviceRoleKey: string;
  /** Where the generated keys live, when they were generated. */
  file: string | undefined;
}

const KEYS_FILE = 'keys.json';
const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

const jwkSchema = z.looseObject({ kty: z.string(), kid: z.string().optional() });
const jwkSetSchema = z.union([z.array(jwkSchema), z.object({ keys: z.array(jwkSchema) })]);

const keysFileSchema = z.object({
  version: z.literal(1),
  signingKey: jwkSchema,
  anonKey: z.string(),
  serviceRoleKey: z.string(),
});
type KeysFile = z.infer<typeof keysFileSchema>;

function mintApiKey(ring: KeyRing, role: 'anon' | 'service_role'): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return ring.sign({
    iss: 'cervana',
    role,
    iat: issuedAt,
    exp: issuedAt + API_KEY_LIFETIME_SECONDS,
  });
}

async function ringFromJwks(jwks: JWK[], secret: string | undefined): Promise<KeyRing> {
  const markedForSigning = jwks.find((jwk) => jwk.key_ops?.includes('sign'));
  const signingJwk = markedForSigning ?? jwks.find((jwk) => jwk.d !== undefined || jwk.k);
  if (!signingJwk) throw new ConfigError('JWT_KEYS holds no private key to sign with');
  let signing: SigningKey;
  let verification: Awaited<ReturnType<typeof importVerificationJwk>>[];
  try {
    signing = await importSigningJwk(signingJwk);
    verification = await Promise.all(jwks.map(importVerificationJwk));
  } catch (error) {
    throw new ConfigError(`JWT_KEYS holds a key that cannot be used: ${(error as Error).message}`);
  }
  const secretKey = secret
    ? [{ kid: undefined, alg: 'HS256' as const, key: encodeSecret(secret) }]
    : [];
  const publicKeys = jwks.map(publicPart).filter((jwk): jwk is JWK => jwk !== undefined);
  return createKeyRing(signing, [...verification, ...secretKey], publicKeys);
}

function encodeSecret(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

function parseJwtKeys(raw: string): JWK[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError('JWT_KEYS must be a JSON array of JWKs or a JWK set ({"keys": [...]})');
  }
  const parsed = jwkSetSchema.safeParse(json);
  if (
    !parsed.success ||
    (Array.isArray(parsed.data) ? parsed.data : parsed.data.keys).length === 0
  ) {
    throw new ConfigError('JWT_KEYS must be a JSON array of JWKs or a JWK set ({"keys": [...]})');
  }
  return (Array.isArray(parsed.data) ? parsed.data : parsed.data.keys) as JWK[];
}

async function readKeysFile(file: string): Promise<KeysFile | undefined> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = keysFileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) {
    throw new ConfigError(
      `${file} is not a keys file this server wrote; move it away to generate new keys`,
    );
  }
  return parsed.data;
}

async function writeKeysFile(file: string, contents: KeysFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

async function generatedKeys(dataDir: string): Promise<{ file: string; contents: KeysFile }> {
  const file = path.join(dataDir, KEYS_FILE);
  const existing = await readKeysFile(file);
  if (existing) {
    await chmod(file, 0o600);
    return { file, contents: existing };
  }
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey: JWK = {
    ...(await exportJWK(privateKey)),
    kid: randomUUID(),
    alg: 'ES256',
    use: 'sig',
    key_ops: ['sign', 'verify'],
  };
  const ring = await ringFromJwks([signingKey], undefined);
  const contents: KeysFile = {
    version: 1,
    signingKey: signingKey as KeysFile['signingKey'],
    anonKey: await mintApiKey(ring, 'anon'),
    serviceRoleKey: await mintApiKey(ring, 'service_role'),
  };
  try {
    await writeKeysFile(file, contents);
  } catch (error) {
    // Another process started on the same folder and won the race: use its keys.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return generatedKeys(dataDir);
    throw error;
  }
  return { file, contents };
}

async function checkApiKey(
  ring: KeyRing,
  token: string,
  role: 'anon' | 'service_role',
  variable: string,
): Promise<void> {
  const claims = await ring.verify(token).catch((error: Error) => {
    throw new ConfigError(
      `${variable} does not verify with the configured JWT keys: ${error.message}`,
    );
  });
  if (claims.role !== role) {
    throw new ConfigError(
      `${variable} must carry the role "${role}", not "${String(claims.role)}"`,
    );
  }
}

export async function loadKeys(config: Config): Promise<Keys> {
  const { jwt } = config;
  let ring: KeyRing;
  let file: string | undefined;
  let minted: { anonKey: string; serviceRoleKey: string } | undefined;

  if (jwt.keys) {
    ring = await ringFromJwks(parseJwtKeys(jwt.keys), jwt.secret);
  } else if (jwt.secret) {
    const secret = encodeSecret(jwt.secret);
    ring = createKeyRing(
      { kid: undefined, alg: 'HS256', key: secret },
      [{ kid: undefined, alg: 'HS256', key: secret }],
      [],
    );
  } else {
    const generated = await generatedKeys(config.dataDir);
    file = generated.file;
    ring = await ringFromJwks([generated.contents.signingKey as JWK], undefined);
    minted = generated.contents;
  }

  const anonKey = jwt.anonKey ?? minted?.anonKey ?? (await mintApiKey(ring, 'anon'));
  const serviceRoleKey =
    jwt.serviceRoleKey ?? minted?.serviceRoleKey ?? (await mintApiKey(ring, 'service_role'));
  // A site pointed at another backend (API_URL elsewhere) carries that backend's keys.
  if (config.apiUrl === config.siteUrl) {
    if (jwt.anonKey) await checkApiKey(ring, anonKey, 'anon', 'ANON_KEY');
    if (jwt.serviceRoleKey) {
      await checkApiKey(ring, serviceRoleKey, 'service_role', 'SERVICE_ROLE_KEY');
    }
  }
  return { ring, anonKey, serviceRoleKey, file };
}
