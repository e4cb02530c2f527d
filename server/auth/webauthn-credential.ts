import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';

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
