import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { isApiRole } from '../db/request-context';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';
import type { ActorName, UserName, WorkspaceName } from './access-matrix';
import type { Identity } from './sql-access-driver';

/**
 * The access matrix's world, made the way users are really made: through the
 * auth API (so the sign-up triggers run), then signed in for real JWT claims.
 */

export const PASSWORD = 'a long and unusual passphrase 42';

interface UserSpec {
  fullName: string;
  company?: string;
  role?: 'partner' | 'admin';
}

const SPECS: Record<Exclude<UserName, 'guest'>, UserSpec> = {
  alice: { fullName: 'Alice Archer', company: 'Acme Health' },
  aaron: { fullName: 'Aaron Abbott', company: 'Acme Health' },
  amir: { fullName: 'Amir Aziz', company: 'Acme Health' },
  bob: { fullName: 'Bob Baker', company: 'Bluebird Freight' },
  bea: { fullName: 'Bea Brooks', company: 'Bluebird Freight' },
  parker: { fullName: 'Parker Price', company: 'Brightpath Advisors', role: 'partner' },
  sam: { fullName: 'Sam Staff', company: 'Cervana', role: 'admin' },
};

export interface TestWorld {
  users: Record<UserName, string>;
  workspaces: Record<WorkspaceName, string>;
  identities: Record<ActorName, Identity>;
  /** `@name` → id; anything else unchanged. */
  resolve(value: string | null): string | null;
  /** The world's name for an id (user or workspace). */
  nameOf(id: unknown): string;
}

function identityOf(accessToken: string): Identity {
  const claims = decodeJwt(accessToken) as Record<string, unknown>;
  if (!isApiRole(claims.role)) throw new Error(`unexpected role in token: ${String(claims.role)}`);
  return { role: claims.role, claims };
}

/** A verified TOTP factor: its id and the secret that makes its codes. */
export interface TestFactor {
  id: string;
  secret: string;
}

/** The current code of a TOTP secret (SHA-1, 6 digits, 30 s), as an authenticator app shows it. */
export function totpCode(secret: string): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
}

/** Raises a signed-in client's session to aal2 with a code of its factor. */
export async function passSecondFactor(
  client: SupabaseClient,
  factor: TestFactor,
): Promise<string> {
  const { data, error } = await client.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totpCode(factor.secret),
  });
  if (error) throw error;
  return data.access_token;
}

/**
 * Creates a confirmed user through the admin API and signs them in. An admin
 * also enrols a TOTP factor and verifies it, as the app makes every admin do
 * before /admin opens (admin data needs aal2): their identity is the aal2
 * session's, and `factor` lets a test sign them in again.
 */
export async function createSignedInUser(
  server: TestServer,
  spec: UserSpec,
): Promise<{ id: string; identity: Identity; email: string; factor?: TestFactor }> {
  const admin = clientFor(server, { key: server.serviceRoleKey });
  const email = uniqueEmail(spec.fullName.split(' ')[0]!.toLowerCase());
  const created = await admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: { full_name: spec.fullName, ...(spec.company ? { company: spec.company } : {}) },
    ...(spec.role ? { app_metadata: { role: spec.role } } : {}),
  });
  if (created.error) throw created.error;
  const client = clientFor(server);
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  if (spec.role !== 'admin') {
    return {
      id: created.data.user.id,
      identity: identityOf(signedIn.data.session.access_token),
      email,
    };
  }
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) throw enrolled.error;
  const factor = { id: enrolled.data.id, secret: enrolled.data.totp.secret };
  const accessToken = await passSecondFactor(client, factor);
  return { id: created.data.user.id, identity: identityOf(accessToken), email, factor };
}

export async function createTestWorld(server: TestServer): Promise<TestWorld> {
  const users = {} as Record<UserName, string>;
  const identities = {} as Record<ActorName, Identity>;
  for (const [name, spec] of Object.entries(SPECS) as [Exclude<UserName, 'guest'>, UserSpec][]) {
    const user = await createSignedInUser(server, spec);
    users[name] = user.id;
    if (name !== 'bea') identities[name] = user.identity;
  }
  const guest = await clientFor(server).auth.signInAnonymously();
  if (guest.error) throw guest.error;
  users.guest = guest.data.user!.id;
  identities.guest = identityOf(guest.data.session!.access_token);
  identities.anon = identityOf(server.anonKey);

  // Everyone signed up on their own; alice's and bob's workspaces become the
  // teams, the others' own workspaces go (as the owner, outside RLS).
  const { rows } = await server.db.query<{ id: string; created_by: string }>(
    `select id, created_by from public.workspaces where created_by in ($1, $2)`,
    [users.alice, users.bob],
  );
  const workspaces = {
    acme: rows.find((row) => row.created_by === users.alice)!.id,
    bluebird: rows.find((row) => row.created_by === users.bob)!.id,
  };
  await server.db.query(`delete from public.workspaces where created_by = any($1::uuid[])`, [
    [users.aaron, users.amir, users.bea],
  ]);
  await server.db.query(
    `insert into public.workspace_members (workspace_id, user_id, role)
     values ($1, $2, 'admin'), ($1, $3, 'member'), ($4, $5, 'owner')`,
    [workspaces.acme, users.aaron, users.amir, workspaces.bluebird, users.bea],
  );

  const names = new Map<string, string>([
    ...Object.entries(users).map(([name, id]) => [id, name] as [string, string]),
    ...Object.entries(workspaces).map(([name, id]) => [id, name] as [string, string]),
  ]);
  const ids = new Map([...names].map(([id, name]) => [name, id]));
  return {
    users,
    workspaces,
    identities,
    resolve: (value) => {
      if (value === null || !value.startsWith('@')) return value;
      const id = ids.get(value.slice(1));
      if (!id) throw new Error(`nothing in the test world is called ${value}`);
      return id;
    },
    nameOf: (id) => names.get(String(id)) ?? `unknown ${String(id)}`,
  };
}
