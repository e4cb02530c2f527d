import { connect, type Socket } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordTasksRun } from '../auth/passwords';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 22, beyond the seven: per-network limits (IPv6 by /64), wrong
 * codes counted per code, no bcrypt before a request is counted, and HTTP
 * timeouts that cut off slow clients. The server trusts X-Forwarded-For here,
 * so each request can come from the address a test chooses.
 */

const PASSWORD = 'a long and unusual passphrase 7';
const VERIFY_LIMIT = 4;
const SIGN_IN_LIMIT = 3;
const FAILED_SIGN_INS = 3;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      MAILER_AUTOCONFIRM: 'true',
      MAILER_MAX_FREQUENCY: '0',
      RATE_LIMIT_VERIFY: String(VERIFY_LIMIT),
      RATE_LIMIT_SIGN_IN_SIGN_UPS: String(SIGN_IN_LIMIT),
      RATE_LIMIT_FAILED_SIGN_INS: String(FAILED_SIGN_INS),
    },
  });
});
afterAll(() => server?.close());

/**
 * The headers that make the server see a request as coming from `ip`. The one
 * place that knows how the caller's address is conveyed (X-Forwarded-For, read
 * with TRUST_PROXY): change it here if that parsing changes.
 */
function from(ip: string): Record<string, string> {
  return { 'x-forwarded-for': ip };
}

/** The official client, its requests coming from `ip`. */
function clientFrom(ip: string): SupabaseClient {
  return clientFor(server, { global: { headers: from(ip) } });
}

let lastAddress = 0;
/** A fresh IPv4 address, so no per-network limit of one test reaches another. */
function freshIp(): string {
  lastAddress += 1;
  return `198.18.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
}

/** Signs up (autoconfirmed) from a fresh address: the client holds the session. */
async function signedUp(): Promise<{ supabase: SupabaseClient; email: string; ip: string }> {
  const ip = freshIp();
  const supabase = clientFrom(ip);
  const email = uniqueEmail('auth-limits');
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  return { supabase, email, ip };
}

/** Codes of the same length as `code` that are not it. */
function wrongCodes(code: string, count: number): string[] {
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n += 1) {
    const candidate = String(n).padStart(code.length, '0');
    if (candidate !== code) codes.push(candidate);
  }
  return codes;
}

describe('per-network limits', () => {
  it('count every address of one IPv6 /64 together', async () => {
    const email = uniqueEmail('nobody');
    const verifyFrom = (ip: string) =>
      clientFrom(ip).auth.verifyOtp({ email, token: '123456', type: 'email' });
    for (let host = 1; host <= VERIFY_LIMIT; host += 1) {
      const { error } = await verifyFrom(`2001:db8:0:1::${host.toString(16)}`);
      expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    // Another host of the same /64, written in full: over the limit.
    const over = await verifyFrom('2001:0db8:0000:0001:ffff:ffff:ffff:fffe');
    expect(over.error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    // The neighbouring /64 has its own budget.
    const neighbour = await verifyFrom('2001:db8:0:2::1');
    expect(neighbour.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('count an IPv4 address and its IPv4-mapped IPv6 form together', async () => {
    const email = uniqueEmail('nobody');
    const verifyFrom = (ip: string) =>
      clientFrom(ip).auth.verifyOtp({ email, token: '123456', type: 'email' });
    for (let attempt = 0; attempt < VERIFY_LIMIT; attempt += 1) {
      const ip = attempt % 2 === 0 ? '203.0.113.9' : '::ffff:203.0.113.9';
      expect((await verifyFrom(ip)).error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    expect((await verifyFrom('203.0.113.9')).error).toMatchObject({ status: 429 });
    expect((await verifyFrom('::FFFF:203.0.113.9')).error).toMatchObject({ status: 429 });
    expect((await verifyFrom('203.0.113.10')).error).toMatchObject({ status: 403 });
  });
});

describe('wrong email codes', () => {
  async function requestCode(email: string): Promise<string> {
    expect((await clientFrom(freshIp()).auth.signInWithOtp({ email })).error).toBeNull();
    return codeIn(await latestMessage(server.db, email));
  }

  it('void the code after five, answering as for any wrong code, from however many addresses', async () => {
    const { email } = await signedUp();
    const code = await requestCode(email);
    // Each guess from another network: per-network limits never trigger.
    for (const guess of wrongCodes(code, 5)) {
      const { error } = await clientFrom(freshIp()).auth.verifyOtp({
        email,
        token: guess,
        type: 'email',
      });
      expect(error).toMatchObject({
        status: 403,
        code: 'otp_expired',
        message: 'Token has expired or is invalid',
      });
    }
    // The right code no longer works, and says nothing more than a wrong one.
    const voided = await clientFrom(freshIp()).auth.verifyOtp({
      email,
      token: code,
      type: 'email',
    });
    expect(voided.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    expect(voided.data.session).toBeNull();

    // A new code starts a new count: four misses leave it usable.
    const fresh = await requestCode(email);
    for (const guess of wrongCodes(fresh, 4)) {
      const { error } = await clientFrom(freshIp()).auth.verifyOtp({
        email,
        token: guess,
        type: 'magiclink',
      });
      expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const verified = await clientFrom(freshIp()).auth.verifyOtp({
      email: email.toUpperCase(),
      token: fresh,
      type: 'email',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
  });
});

describe('wrong MFA codes', () => {
  function totpCode(secret: string, stepOffset = 0): string {
    return TOTP.generate({
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: Date.now() + stepOffset * 30_000,
    });
  }

  /** Six-digit codes valid in none of the accepted time steps. */
  function wrongTotpCodes(secret: string, count: number): string[] {
    const valid = new Set([-2, -1, 0, 1, 2].map((offset) => totpCode(secret, offset)));
    return wrongCodes('000000', count + valid.size)
      .filter((code) => !valid.has(code))
      .slice(0, count);
  }

  async function enrolled(supabase: SupabaseClient) {
    const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
    expect(error).toBeNull();
    return data!;
  }

  async function challenge(supabase: SupabaseClient, factorId: string): Promise<string> {
    const { data, error } = await supabase.auth.mfa.challenge({ factorId });
    expect(error).toBeNull();
    return data!.id;
  }

  it('delete the challenge after five: the right code then finds it expired', async () => {
    const { supabase } = await signedUp();
    const factor = await enrolled(supabase);
    const challengeId = await challenge(supabase, factor.id);
    for (const code of wrongTotpCodes(factor.totp.secret, 5)) {
      const { error } = await supabase.auth.mfa.verify({ factorId: factor.id, challengeId, code });
      expect(error).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
        message: 'Invalid TOTP code entered',
      });
    }
    const { rows } = await server.db.query(`select 1 from auth.mfa_challenges where id = $1`, [
      challengeId,
    ]);
    expect(rows).toHaveLength(0);
    const late = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId,
      code: totpCode(factor.totp.secret),
    });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    expect(late.data).toBeNull();

    // A new challenge takes the right code.
    const next = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: await challenge(supabase, factor.id),
      code: totpCode(factor.totp.secret),
    });
    expect(next.error).toBeNull();
  });

  it('stop a user guessing over new challenges after 20 wrong codes in an hour', async () => {
    const { supabase } = await signedUp();
    const factor = await enrolled(supabase);
    const guesses = wrongTotpCodes(factor.totp.secret, 20);
    for (let round = 0; round < 4; round += 1) {
      const challengeId = await challenge(supabase, factor.id);
      for (const code of guesses.slice(round * 5, round * 5 + 5)) {
        const { error } = await supabase.auth.mfa.verify({
          factorId: factor.id,
          challengeId,
          code,
        });
        expect(error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
      }
    }
    const refused = await supabase.auth.mfa.verify({
      factorId: factor.id,
      challengeId: await challenge(supabase, factor.id),
      code: totpCode(factor.totp.secret),
    });
    expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

describe('password hashing', () => {
  it('does not hash a sign-up over the limit', async () => {
    const supabase = clientFrom(freshIp());
    for (let n = 0; n < SIGN_IN_LIMIT; n += 1) {
      const { error } = await supabase.auth.signUp({
        email: uniqueEmail('burst'),
        password: PASSWORD,
      });
      expect(error).toBeNull();
    }
    const before = passwordTasksRun();
    for (let n = 0; n < 3; n += 1) {
      const { error } = await supabase.auth.signUp({
        email: uniqueEmail('burst'),
        password: PASSWORD,
      });
      expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    }
    expect(passwordTasksRun()).toBe(before);
  });

  it('limits password changes per user, before any hashing', async () => {
    const { supabase } = await signedUp();
    // Ten attempts an hour, counted whatever their outcome (a weak password costs no bcrypt).
    for (let n = 0; n < 10; n += 1) {
      const { error } = await supabase.auth.updateUser({ password: 'short' });
      expect(error).toMatchObject({ status: 422, code: 'weak_password' });
    }
    const before = passwordTasksRun();
    const over = await supabase.auth.updateUser({ password: 'another unusual passphrase 8' });
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(passwordTasksRun()).toBe(before);
    // Other changes still go through.
    const metadata = await supabase.auth.updateUser({ data: { plan: 'pro' } });
    expect(metadata.error).toBeNull();
  });

  it('counts wrong current passwords as failed sign-ins', async () => {
    const { supabase, email } = await signedUp();
    for (let n = 0; n < FAILED_SIGN_INS; n += 1) {
      const { error } = await supabase.auth.updateUser({
        password: 'another unusual passphrase 8',
        current_password: `not the password ${n}`,
      });
      expect(error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    }
    // The account is over its failed-password limit: a sign-in from a new address is refused.
    const elsewhere = await clientFrom(freshIp()).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(elsewhere.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    // The password did not change.
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from auth.audit_log_entries
       where payload ->> 'action' = 'user_updated_password' and payload ->> 'actor_username' = $1`,
      [email],
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('HTTP timeouts and connections', () => {
  const HEADERS_TIMEOUT_MS = 1000;
  const IDLE_TIMEOUT_MS = 1500;
  const MAX_CONNECTIONS = 4;
  let http: TestServer;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    http = await startTestServer({
      database: server.db,
      env: {
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
        MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      },
    });
    port = Number(new URL(http.url).port);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await http?.close();
  });

  interface RawConnection {
    socket: Socket;
    /** Everything the server sent. */
    received(): string;
    /** Milliseconds from connecting until the server closed the connection. */
    closed: Promise<number>;
  }

  async function open(): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    const started = Date.now();
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => {
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Date.now() - started));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return { socket, received: () => text, closed };
  }

  /** Resolves with the value, or with 'still open' after `ms`. */
  function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still open'> {
    return Promise.race([
      promise,
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms)),
    ]);
  }

  it('cuts off a client that trickles its headers (slowloris)', async () => {
    const connection = await open();
    connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => connection.socket.write('X-Slow: 1\r\n'), 200);
    try {
      const closedAfter = await within(connection.closed, HEADERS_TIMEOUT_MS + 4000);
      expect(closedAfter).not.toBe('still open');
      expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
  });

  it('lets a slow upload finish while its bytes keep moving, past the headers timeout', async () => {
    const connection = await open();
    const body = JSON.stringify({ email: 'slow@example.com', phone: '+15555550100' });
    connection.socket.write(
      `POST /auth/v1/otp HTTP/1.1\r\nHost: localhost\r\napikey: ${http.anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    const parts = body.match(/.{1,6}/g)!;
    const started = Date.now();
    for (const part of parts) {
      await new Promise((resolve) => setTimeout(resolve, (2 * HEADERS_TIMEOUT_MS) / parts.length));
      connection.socket.write(part);
    }
    expect(Date.now() - started).toBeGreaterThan(HEADERS_TIMEOUT_MS);
    await within(
      new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (connection.received().includes('\r\n\r\n')) {
            clearInterval(check);
            resolve();
          }
        }, 20);
      }),
      3000,
    );
    // Answered (a validation error: one of email or phone), not cut off.
    expect(connection.received()).toMatch(/^HTTP\/1\.1 400 /);
    connection.socket.destroy();
  });

  it('closes a request that stops sending for the idle timeout', async () => {
    const connection = await open();
    connection.socket.write(
      `POST /auth/v1/otp HTTP/1.1\r\nHost: localhost\r\napikey: ${http.anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
    );
    const closedAfter = await within(connection.closed, IDLE_TIMEOUT_MS + 4000);
    expect(closedAfter).not.toBe('still open');
    expect(closedAfter).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 100);
  });

  it(`refuses connections past MAX_CONNECTIONS`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open()));
    const extra = await open();
    const extraClosed = await within(extra.closed, 500);
    expect(extraClosed).not.toBe('still open');
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
    // Once they are gone, new connections are served again.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
      status = await fetch(`${http.url}/health`)
        .then((response) => response.status)
        .catch(() => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
  });
});
