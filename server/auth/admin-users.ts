import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../db/database';
import {
  adminActor,
  createAdminUser,
  emailTaken,
  loadTargetUser,
  requestAudience,
  validateEmailParam,
} from './admin-shared';
import { recordAudit } from './audit';
import type { AuthDependencies } from './context';
import { confirmEmail, confirmPhone } from './create-user';
import { AuthError, errors } from './errors';
import {
  checkPasswordLength,
  checkPasswordStrength,
  hashPassword,
  isSupportedPasswordHash,
} from './passwords';
import { clientIp, isUuid, metadataObject, optionalString, readBody } from './request';
import { requireAdmin } from './request-auth';
import { findUserById, loadUserJson, mergeMetadata, normalisePhone } from './users';

/** GoTrue's admin user writes: POST /admin/users and PUT /admin/users/:id (AdminUserParams). */

function validatePhoneParam(phone: string): string {
  const normalised = normalisePhone(phone);
  if (!normalised) throw errors.validation('Invalid phone number format (E.164 required)');
  return normalised;
}

async function phoneTaken(db: Queryable, phone: string, aud: string, exceptId?: string) {
  const { rows } = await db.query(
    `select 1 from auth.users where phone = $1 and aud = $2 and is_sso_user = false
       and ($3::uuid is null or id <> $3::uuid) limit 1`,
    [phone, aud, exceptId ?? null],
  );
  return rows.length > 0;
}

const GO_UNITS: Record<string, bigint> = {
  ...{ ns: 1n, us: 1_000n, µs: 1_000n, μs: 1_000n, ms: 1_000_000n, s: 1_000_000_000n },
  ...{ m: 60_000_000_000n, h: 3_600_000_000_000n },
};
const MAX_NS = 1n << 63n;

/** Go's quoting in time's errors: bytes outside printable ASCII as \xNN. */
function goQuote(value: string): string {
  const bytes = [...Buffer.from(value)].map((byte) =>
    byte < 0x20 || byte >= 0x80
      ? `\\x${byte.toString(16).padStart(2, '0')}`
      : String.fromCharCode(byte).replace(/["\\]/, '\\$&'),
  );
  return `"${bytes.join('')}"`;
}

/** Go's time.ParseDuration ("24h", "1h30m", "1.5h") in nanoseconds, with Go's error texts. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${goQuote(text)}`);
  const sign = /^[-+]/.test(text) ? text[0]! : '';
  let rest = text.slice(sign.length);
  if (rest === '0') return 0n;
  if (rest === '') throw invalid();
  let total = 0n;
  while (rest !== '') {
    const [segment, whole = '', fraction, unitName = ''] = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(
      rest,
    )!;
    if (whole === '' && !fraction) throw invalid();
    const wholeValue = BigInt(whole || '0');
    if (wholeValue > MAX_NS) throw invalid();
    if (unitName === '') throw new Error(`time: missing unit in duration ${goQuote(text)}`);
    const unit = GO_UNITS[unitName];
    if (unit === undefined)
      throw new Error(`time: unknown unit ${goQuote(unitName)} in duration ${goQuote(text)}`);
    const part = fraction ? BigInt(Math.floor(Number(`0.${fraction}`) * Number(unit))) : 0n;
    if (wholeValue > MAX_NS / unit || wholeValue * unit + part > MAX_NS) throw invalid();
    total += wholeValue * unit + part;
    if (total > MAX_NS) throw invalid();
    rest = rest.slice(segment.length);
  }
  if (sign === '-') return -total;
  if (total > MAX_NS - 1n) throw invalid();
  return total;
}

/** ban_duration: undefined (leave), 0n ("none": unban) or a duration in nanoseconds. */
function parseBanDuration(value: string | undefined): bigint | undefined {
  if (!value) return undefined;
  if (value === 'none') return 0n;
  try {
    return parseGoDuration(value);
  } catch (error) {
    throw errors.validation(`invalid format for ban duration: ${(error as Error).message}`);
  }
}

async function applyBan(db: Queryable, userId: string, nanoseconds: bigint) {
  await db.query(
    `update auth.users set banned_until = case when $2::float8 = 0 then null
       else now() + make_interval(secs => $2::float8) end, updated_at = now() where id = $1`,
    [userId, Number(nanoseconds) / 1e9],
  );
}

const ARGON2 = /^\$argon2(d|i|id)\$v=(\d+)\$([^$]+)\$([^$]+)\$([^$]+)$/;

/** An imported hash: bcrypt, or argon2i/argon2id within GoTrue's limits (its and Go's messages). */
function validatePasswordHash(hash: string): void {
  const fail = (message: string): never => {
    throw errors.validation(message);
  };
  if (hash.startsWith('$argon2')) {
    const [, alg, version, list = ''] = ARGON2.exec(hash) ?? [];
    // m, t and p in any order: node-argon2 writes m,p,t where GoTrue's pattern wants m,t,p.
    const params = new Map(list.split(',').map((pair) => pair.split('=') as [string, string]));
    const [m, t, p] = ['m', 't', 'p'].map((key) => params.get(key) ?? '');
    if (!alg || ![m, t, p].every((value) => /^\d+$/.test(value!)))
      fail('crypto: incorrect argon2 hash format');
    if (alg === 'd')
      fail(
        'crypto: argon2 hash uses unsupported algorithm "argon2d" only argon2i and argon2id supported',
      );
    if (version !== '19')
      fail(`crypto: argon2 hash uses unsupported version "${version}" only 19 is supported`);
    if (params.has('keyid') || params.has('data'))
      fail('crypto: argon2 hashes with the keyid or data parameter not supported');
    if (Number(m) > 1024 * 1024 || Number(t) > 20 || Number(p) > 16)
      fail('crypto: argon2 hash exceeds the memory, time or thread limit');
    return;
  }
  if (hash.length < 59) fail('crypto/bcrypt: hashedSecret too short to be a bcrypted password');
  if (hash[0] !== '$')
    fail(
      `crypto/bcrypt: bcrypt hashes must start with '$', but hashedSecret started with '${hash[0]}'`,
    );
  if (!isSupportedPasswordHash(hash))
    fail('Unsupported password hash: only bcrypt ($2a$, $2b$, $2y$) and argon2 are accepted');
}

const flag = z
  .union([z.boolean(), z.null()])
  .optional()
  .transform((value) => value ?? false);

const adminUserBody = z.object({
  id: optionalString,
  aud: optionalString,
  role: optionalString,
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  password_hash: optionalString,
  email_confirm: flag,
  phone_confirm: flag,
  user_metadata: metadataObject,
  app_metadata: metadataObject,
  ban_duration: optionalString,
});

/** The stored hash for a password or an imported hash (never both); on create "" means none. */
async function passwordHashFor(
  body: z.infer<typeof adminUserBody>,
  check: (password: string) => void,
  emptyIsNone = false,
): Promise<string | undefined> {
  if (body.password !== undefined && body.password_hash)
    throw errors.validation('Only a password or a password hash should be provided');
  if (body.password_hash) {
    validatePasswordHash(body.password_hash);
    return body.password_hash;
  }
  if (body.password === undefined || (emptyIsNone && body.password === '')) return undefined;
  check(body.password);
  return hashPassword(body.password);
}

/** POST /admin/users */
export async function adminCreateUser(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const body = await readBody(c, adminUserBody);
  const aud = body.aud || requestAudience(c, deps);
  if (!body.email && !body.phone)
    throw errors.validation('Cannot create a user without either an email or phone');
  const providers: string[] = [];
  const email = body.email ? validateEmailParam(body.email) : undefined;
  if (email) {
    if (await emailTaken(deps.db, email, aud)) throw errors.emailExists();
    providers.push('email');
  }
  const phone = body.phone ? validatePhoneParam(body.phone) : undefined;
  if (phone) {
    if (await phoneTaken(deps.db, phone, aud)) throw errors.phoneExists();
    providers.push('phone');
  }
  // GoTrue does not check an admin-set password's strength here, only bcrypt's limit.
  const encryptedPassword =
    (await passwordHashFor(body, checkPasswordLength, true)) ??
    (await hashPassword(randomBytes(48).toString('base64url')));
  if (body.id && !isUuid(body.id)) throw errors.validation('ID must conform to the uuid v4 format');
  if (body.id && /^[0-]+$/.test(body.id)) throw errors.validation('ID cannot be a nil uuid');
  const ban = parseBanDuration(body.ban_duration);

  const userId = await deps.db.transaction(async (tx) => {
    if (body.id && (await findUserById(tx, body.id.toLowerCase()))) {
      throw new AuthError(500, 'unexpected_failure', 'Database error creating new user');
    }
    const user = await createAdminUser(tx, {
      id: body.id?.toLowerCase(),
      email,
      phone,
      encryptedPassword,
      role: body.role ? body.role.trim() : deps.config.defaultRole,
      aud,
      userMetadata: { ...body.user_metadata, ...(body.email_confirm && { email_verified: true }) },
      appMetadata: mergeMetadata({ provider: providers[0], providers }, body.app_metadata),
    });
    if (body.email_confirm) await confirmEmail(tx, user.id);
    if (body.phone_confirm) await confirmPhone(tx, user.id);
    if (ban !== undefined) await applyBan(tx, user.id, ban);
    await recordAudit(tx, adminActor(claims), 'user_signedup', clientIp(c, deps.trustProxy), {
      user_id: user.id,
      user_email: email ?? '',
      user_phone: phone ?? '',
      provider: providers[0],
    });
    return user.id;
  });
  return c.json(await loadUserJson(deps.db, userId));
}

/** The email or phone identity of a user: updated, or created when missing (GoTrue). */
async function setAddressIdentity(
  db: Queryable,
  userId: string,
  provider: 'email' | 'phone',
  value: string,
  verified: boolean,
): Promise<void> {
  const update = { [provider]: value, [`${provider}_verified`]: verified };
  const { rowCount } = await db.query(
    `update auth.identities set identity_data = identity_data || $3::jsonb, updated_at = now()
     where provider_id = $1 and provider = $2`,
    [userId, provider, JSON.stringify(update)],
  );
  if (rowCount > 0) return;
  const data = { sub: userId, email_verified: false, phone_verified: false, ...update };
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1::text, $1::uuid, $3, $2, now(), now(), now())`,
    [userId, provider, JSON.stringify(data)],
  );
}

/** PUT /admin/users/:id */
export async function adminUpdateUser(c: Context, deps: AuthDependencies): Promise<Response> {
  const claims = await requireAdmin(c, deps);
  const target = await loadTargetUser(deps.db, c.req.param('id') ?? '');
  const body = await readBody(c, adminUserBody);
  const email = body.email ? validateEmailParam(body.email) : undefined;
  const phone = body.phone ? validatePhoneParam(body.phone) : undefined;
  const ban = parseBanDuration(body.ban_duration);
  const encryptedPassword = await passwordHashFor(body, (password) =>
    checkPasswordStrength(deps.config.password, password),
  );

  await deps.db.transaction(async (tx) => {
    const user = (await findUserById(tx, target.id, true))!;
    const aud = user.aud ?? deps.config.audience;
    if (email && email !== user.email && (await emailTaken(tx, email, aud, user.id)))
      throw errors.emailExists();
    if (phone && phone !== user.phone && (await phoneTaken(tx, phone, aud, user.id)))
      throw errors.phoneExists();
    const run = (sql: string, params: unknown[] = []) => tx.query(sql, [user.id, ...params]);
    if (body.role) await run(`update auth.users set role = $2 where id = $1`, [body.role.trim()]);
    if (body.email_confirm) await confirmEmail(tx, user.id);
    if (body.phone_confirm) await confirmPhone(tx, user.id);
    if (body.email_confirm || body.phone_confirm || encryptedPassword)
      await run(`delete from auth.one_time_tokens where user_id = $1`);
    if (encryptedPassword) {
      // As GoTrue: pending links are void and every session ends.
      await run(
        `update auth.users set encrypted_password = $2, confirmation_sent_at = null, recovery_sent_at = null,
           email_change_sent_at = null, phone_change_sent_at = null, reauthentication_sent_at = null where id = $1`,
        [encryptedPassword],
      );
      await run(`delete from auth.sessions where user_id = $1`);
    }
    if (email) await setAddressIdentity(tx, user.id, 'email', email, body.email_confirm);
    if (phone) await setAddressIdentity(tx, user.id, 'phone', phone, body.phone_confirm);
    const leavesAnonymity = (email && body.email_confirm) || (phone && body.phone_confirm);
    await run(
      `update auth.users set email = coalesce($2, email), phone = coalesce($3, phone),
         is_anonymous = is_anonymous and not $4, updated_at = now() where id = $1`,
      [email ?? null, phone ?? null, Boolean(leavesAnonymity)],
    );
    const confirmed = body.email_confirm ? { email_verified: true } : {};
    const userMetadata = mergeMetadata(
      mergeMetadata(user.raw_user_meta_data, confirmed),
      body.user_metadata,
    );
    const appMetadata = mergeMetadata(user.raw_app_meta_data, body.app_metadata);
    await run(
      `update auth.users set raw_user_meta_data = $2, raw_app_meta_data = $3 where id = $1`,
      [JSON.stringify(userMetadata), JSON.stringify(appMetadata)],
    );
    if (ban !== undefined) await applyBan(tx, user.id, ban);
    await recordAudit(tx, adminActor(claims), 'user_modified', clientIp(c, deps.trustProxy), {
      user_id: user.id,
      user_email: email ?? user.email ?? '',
      user_phone: phone ?? user.phone ?? '',
    });
  });
  return c.json(await loadUserJson(deps.db, target.id));
}
