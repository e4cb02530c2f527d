import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import type { Queryable } from '../db/database';
import { AuthError } from './errors';

/**
 * The serialized PublicKeyCredential a browser sends (`credential.toJSON()`),
 * for passkeys and for WebAuthn second factors alike. Only its shape and sizes
 * are checked here, far above any real authenticator's and far below the body
 * limit; its content is verified by `@simplewebauthn/server`. Unknown fields
 * are dropped, so nothing unchecked reaches the library.
 */

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url');

/** A credential id is at most 1,023 bytes: 1,364 characters of base64url. */
const credentialId = base64url(1364).min(1);

const transports = z
  .array(z.string().max(32))
  .max(10)
  .transform((values) => values as NonNullable<RegistrationResponseJSON['response']['transports']>);

/** Browsers send null, "platform" or "cross-platform"; anything else is ignored. */
const attachment = z
  .string()
  .max(32)
  .nullish()
  .transform((value) => (value === 'platform' || value === 'cross-platform' ? value : undefined));

const clientExtensionResults = z.record(z.string(), z.unknown()).optional().default({});

export const registrationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192).min(1),
    attestationObject: base64url(65536).min(1),
    transports: transports.optional(),
  }),
  clientExtensionResults,
  authenticatorAttachment: attachment,
}) satisfies z.ZodType<RegistrationResponseJSON, unknown>;

export const authenticationCredential = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192).min(1),
    authenticatorData: base64url(8192).min(1),
    signature: base64url(2048).min(1),
    userHandle: base64url(1364)
      .nullish()
      .transform((value) => value ?? undefined),
  }),
  clientExtensionResults,
  authenticatorAttachment: attachment,
}) satisfies z.ZodType<AuthenticationResponseJSON, unknown>;

/** A registered key as registration options name it, to keep it from being registered again. */
export interface RegisteredKey {
  id: string;
  transports?: NonNullable<RegistrationResponseJSON['response']['transports']>;
}

/**
 * Every WebAuthn credential of a user, passkeys and security keys alike. One
 * key is never both: a key that signs in without a PIN would then also be the
 * second factor, and one device would pass both steps. Registration options
 * exclude them all, and a registration of one of them is refused.
 */
export async function registeredKeys(db: Queryable, userId: string): Promise<RegisteredKey[]> {
  const passkeys = await db.query<{ credential_id: Uint8Array; transports: string[] | null }>(
    `select credential_id, transports from auth.webauthn_credentials where user_id = $1`,
    [userId],
  );
  const factors = await db.query<{ id: unknown; transports: unknown }>(
    `select web_authn_credential -> 'id' as id, web_authn_credential -> 'transports' as transports
     from auth.mfa_factors
     where user_id = $1 and factor_type = 'webauthn' and web_authn_credential is not null`,
    [userId],
  );
  return [
    ...passkeys.rows.map((row) => ({
      id: Buffer.from(row.credential_id).toString('base64url'),
      transports: transportsOf(row.transports),
    })),
    ...factors.rows.flatMap((row) =>
      typeof row.id === 'string' ? [{ id: row.id, transports: transportsOf(row.transports) }] : [],
    ),
  ];
}

function transportsOf(value: unknown): RegisteredKey['transports'] {
  return Array.isArray(value)
    ? (value.filter((item) => typeof item === 'string') as RegisteredKey['transports'])
    : undefined;
}

/** Refuses a new registration of a key the user already has, as a passkey or as a factor. */
export async function refuseRegisteredKey(
  db: Queryable,
  userId: string,
  credentialId: string,
): Promise<void> {
  if ((await registeredKeys(db, userId)).some((key) => key.id === credentialId)) {
    throw new AuthError(422, 'webauthn_credential_exists', 'This credential is already registered');
  }
}
