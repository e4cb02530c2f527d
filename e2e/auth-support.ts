import { randomBytes } from 'node:crypto';
import {
  createClient,
  type SupabaseClient,
  type WebSocketLikeConstructor,
} from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { WebSocket } from 'ws';
import { e2eServers } from '../playwright.config';

/**
 * Node-side helpers for the auth specs: the servers scripts/e2e-server.mjs
 * runs, the emails they sent (a real SMTP delivery into the harness's sink),
 * and users made through the admin API so a spec starts from a known account.
 */

/** `main`: production auth settings without per-IP limits; `short`: the same with 100-second access tokens. */
export type ServerName = keyof typeof e2eServers;

/** An email as the harness's SMTP sink received it. */
export interface Mail {
  /** The envelope recipient, lower-case. */
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Attached files, their content as UTF-8 text (calendar invites). */
  attachments: { filename: string; contentType: string; content: string }[];
  /** When the sink received it (ISO 8601, ms precision). */
  date: string;
}

export interface ServerKeys {
  serviceRoleKey: string;
  anonKey: string;
  url: string;
}

/** Long, unique and off every common-password list, so the default rules accept it. */
export const STRONG_PASSWORD = 'Cervana-e2e-Harbour-Lantern-82!';

/** The app (site and API) of a server, without a trailing slash. */
export function appUrl(server: ServerName = 'main'): string {
  return e2eServers[server].url;
}

/** The harness's test API for a server: GET /messages?to=…, /service-role-key, /ready. */
export function mailServerUrl(server: ServerName = 'main'): string {
  return e2eServers[server].mailUrl;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const keysByServer = new Map<ServerName, Promise<ServerKeys>>();

/** The server's API keys (generated at its first start, so read from the harness). */
export function serverKeys(server: ServerName = 'main'): Promise<ServerKeys> {
  let keys = keysByServer.get(server);
  if (!keys) {
    keys = getJson<ServerKeys>(`${mailServerUrl(server)}/service-role-key`);
    keys.catch(() => keysByServer.delete(server)); // a failed read is retried next time
    keysByServer.set(server, keys);
  }
  return keys;
}

// Node has no browser storage, and a test's client must not refresh on its own behind its back.
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  // Node 20 has no WebSocket global, which supabase-js's realtime client needs even unused.
  // ws is the implementation realtime-js documents; only its event types differ from the DOM's.
  realtime: { transport: WebSocket as unknown as WebSocketLikeConstructor },
};

/** A supabase-js client with the anon key, as the app's visitors use (one per call: no shared session). */
export async function anonClient(server: ServerName = 'main'): Promise<SupabaseClient> {
  const { url, anonKey } = await serverKeys(server);
  return createClient(url, anonKey, clientOptions);
}

/** A supabase-js client with the service-role key: `auth.admin.*` and RLS-free data access. */
export async function adminClient(server: ServerName = 'main'): Promise<SupabaseClient> {
  const { url, serviceRoleKey } = await serverKeys(server);
  return createClient(url, serviceRoleKey, clientOptions);
}

/** A fresh address per call, readable in the sink and the server log: `<label>-<time>-<random>@example.com`. */
export function uniqueEmail(label = 'user'): string {
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 30) || 'user';
  return `${slug}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}@example.com`;
}

export interface WaitForMailOptions {
  /** Only mail whose subject matches. */
  subject?: RegExp;
  /** Only mail the sink received at or after this moment (e.g. taken before clicking "Resend"). */
  after?: Date;
  server?: ServerName;
  /** How long to poll; 15 s by default. */
  timeout?: number;
}

/**
 * Waits for an email to `to` and returns the newest that matches: delivery goes
 * through the outbox and SMTP, so it arrives a moment after the request that
 * sent it.
 */
export async function waitForMail(to: string, options: WaitForMailOptions = {}): Promise<Mail> {
  const { subject, after, server = 'main', timeout = 15_000 } = options;
  const url = `${mailServerUrl(server)}/messages?to=${encodeURIComponent(to)}`;
  const deadline = Date.now() + timeout;
  let received: Mail[];
  for (;;) {
    received = await getJson<Mail[]>(url);
    const matching = received.filter(
      (mail) =>
        (!subject || subject.test(mail.subject)) &&
        (!after || new Date(mail.date).getTime() >= after.getTime()),
    );
    const newest = matching.at(-1);
    if (newest) return newest;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seen = received.map((mail) => `"${mail.subject}" at ${mail.date}`).join(', ') || 'none';
  throw new Error(
    `No email to ${to} on the ${server} server within ${timeout} ms` +
      `${subject ? ` with a subject matching ${subject}` : ''}` +
      `${after ? ` received after ${after.toISOString()}` : ''}; received: ${seen}`,
  );
}

const decodeEntities = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The first link in the email to the auth service's verify endpoint (`…/auth/v1/verify?token=…`). */
export function linkIn(mail: Mail): string {
  const candidates = [
    ...mail.text.matchAll(/https?:\/\/[^\s"'<>]+/g),
    ...decodeEntities(mail.html).matchAll(/https?:\/\/[^\s"'<>]+/g),
  ].map((match) => match[0]);
  const link = candidates.find((candidate) => {
    try {
      return new URL(candidate).pathname.endsWith('/auth/v1/verify');
    } catch {
      return false;
    }
  });
  if (!link) throw new Error(`No /auth/v1/verify link in "${mail.subject}":\n${mail.text}`);
  return link;
}

/** The one-time code in the email (the text part says `Your code: 123456`). */
export function codeIn(mail: Mail): string {
  const code = /Your code:\s*(\d{6,10})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No code in "${mail.subject}":\n${mail.text}`);
  return code;
}

export interface NewUser {
  email?: string;
  password?: string;
  fullName?: string;
  company?: string;
  /** Stored in app_metadata.role (only the service role can set app_metadata). */
  role?: 'admin' | 'partner';
  /** Whether the email counts as confirmed (true: the user can sign in at once). */
  confirmed?: boolean;
  /**
   * Whether an admin comes with a verified authenticator app, as every admin
   * must have before /admin opens (default true for admins; false makes an
   * admin who has not set one up yet).
   */
  secondFactor?: boolean;
  server?: ServerName;
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  /** The base32 secret of the user's verified TOTP factor, when they have one. */
  totpSecret?: string;
}

/** Creates a user through the admin API, skipping the sign-up UI and its email. */
export async function createUser(options: NewUser = {}): Promise<CreatedUser> {
  const {
    email = uniqueEmail('user'),
    password = STRONG_PASSWORD,
    fullName,
    company,
    role,
    confirmed = true,
    secondFactor = role === 'admin',
    server = 'main',
  } = options;
  const admin = await adminClient(server);
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: confirmed,
    user_metadata: {
      ...(fullName !== undefined && { full_name: fullName }),
      ...(company !== undefined && { company }),
    },
    ...(role && { app_metadata: { role } }),
  });
  if (error) throw new Error(`createUser(${email}) on ${server}: ${error.message}`);
  const user: CreatedUser = { id: data.user.id, email: data.user.email ?? email, password };
  if (!secondFactor) return user;
  // Set up earlier on another device, as the admin area asks every admin to.
  const client = await anonClient(server);
  const signedIn = await client.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw new Error(`createUser(${email}): ${signedIn.error.message}`);
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) throw new Error(`createUser(${email}): ${enrolled.error.message}`);
  const secret = enrolled.data.totp.secret;
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: enrolled.data.id,
    code: totpCode(secret),
  });
  if (verified.error) throw new Error(`createUser(${email}): ${verified.error.message}`);
  await client.auth.signOut({ scope: 'local' });
  return { ...user, totpSecret: secret };
}

/**
 * A client signed in as the user, past the second factor when they have one
 * (aal2): what a person signed in to the app holds, for setting a scene.
 */
export async function signedInClient(
  user: CreatedUser,
  server: ServerName = 'main',
): Promise<SupabaseClient> {
  const client = await anonClient(server);
  const { error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error) throw new Error(`signedInClient(${user.email}): ${error.message}`);
  if (user.totpSecret) {
    const { data } = await client.auth.mfa.listFactors();
    const factor = data?.totp.find((candidate) => candidate.status === 'verified');
    if (!factor) throw new Error(`signedInClient(${user.email}): no verified factor`);
    const verified = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: totpCode(user.totpSecret),
    });
    if (verified.error) throw new Error(`signedInClient(${user.email}): ${verified.error.message}`);
  }
  return client;
}

/** The current code of a TOTP factor (SHA-1, 6 digits, 30 s), from its base32 secret. */
export function totpCode(secret: string): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate();
}
