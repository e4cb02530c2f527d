import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { captureLogger } from '../testing/capture-logger';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 24, finding 7: every text goes through one function that
 * counts it per client network, per user, per block of destination numbers and
 * in total, and sends only to the allowed countries; phone sign-in and phone
 * MFA are off until an SMS provider is configured, and texts (their codes) are
 * written to the log only with the explicit `SMS_PROVIDER=log`.
 */

const PASSWORD = 'a long and unusual passphrase 7';
const BASE_ENV = {
  MAILER_AUTOCONFIRM: 'true',
  MAILER_MAX_FREQUENCY: '0',
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
};

/** An email account (confirmed at once), signed in. */
async function emailUser(server: TestServer): Promise<SupabaseClient> {
  const supabase = clientFor(server);
  const { error } = await supabase.auth.signUp({ email: uniqueEmail('sms'), password: PASSWORD });
  expect(error).toBeNull();
  return supabase;
}

/** Enrols a phone factor and asks for a code by text. */
async function challengePhone(supabase: SupabaseClient, phone: string, name: string) {
  const enrolled = await supabase.auth.mfa.enroll({
    factorType: 'phone',
    friendlyName: name,
    phone,
  });
  expect(enrolled.error).toBeNull();
  return supabase.auth.mfa.challenge({ factorId: enrolled.data!.id });
}

const SMS_LIMIT = { status: 429, code: 'over_sms_send_rate_limit' };

describe('without an SMS provider (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: BASE_ENV });
  });
  afterAll(() => server?.close());

  // GoTrue's refusals of phone sign-up, sign-in and codes: sms-provider.int.test.ts.
  it('reports phone sign-in off in /settings', async () => {
    const settings = (await (await fetch(`${server.url}/auth/v1/settings`)).json()) as {
      external: { phone: boolean };
      sms_provider: string;
    };
    expect(settings).toMatchObject({ external: { phone: false }, sms_provider: '' });
  });

  it('phone MFA is off, and a signed-in user cannot have a code texted to a new number', async () => {
    const supabase = await emailUser(server);
    const enrolled = await supabase.auth.mfa.enroll({ factorType: 'phone', phone: '+14155550102' });
    expect(enrolled.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
    const changed = await supabase.auth.updateUser({ phone: '+14155550103' });
    expect(changed.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' });
    const { rows } = await server.db.query(
      `select 1 from public.outbox_messages where channel = 'sms'`,
    );
    expect(rows).toHaveLength(0);
  });
});

describe('with an SMS provider', () => {
  let server: TestServer;
  const log = captureLogger();
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        ...BASE_ENV,
        SMS_PROVIDER: 'log',
        RATE_LIMIT_SMS_SENT_PER_USER: '3',
        RATE_LIMIT_SMS_SENT_PER_PREFIX: '3',
      },
      logger: log.logger,
    });
  });
  afterAll(() => server?.close());

  it('counts MFA challenges and phone changes against one limit per user', async () => {
    const supabase = await emailUser(server);
    for (const [n, phone] of ['+12125550101', '+13125550101', '+16465550101'].entries()) {
      expect((await challengePhone(supabase, phone, `phone ${n}`)).error).toBeNull();
    }
    expect((await challengePhone(supabase, '+17185550101', 'phone 4')).error).toMatchObject(
      SMS_LIMIT,
    );
    expect((await supabase.auth.updateUser({ phone: '+12065550101' })).error).toMatchObject(
      SMS_LIMIT,
    );
  });

  it('counts texts to one block of 10,000 numbers together, whoever asks', async () => {
    for (const last of ['0111', '0112', '0113']) {
      const { error } = await clientFor(server).auth.signUp({
        phone: `+1303555${last}`,
        password: PASSWORD,
      });
      expect(error).toBeNull();
    }
    const { error } = await clientFor(server).auth.signUp({
      phone: '+13035550114',
      password: PASSWORD,
    });
    expect(error).toMatchObject(SMS_LIMIT);
    // A refused sign-up leaves no account behind.
    const { rows } = await server.db.query(`select 1 from auth.users where phone = $1`, [
      '13035550114',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('texts only the allowed countries, never premium or personal ranges', async () => {
    for (const phone of [
      '+18765550121', // Jamaica: +1, but not the US or Canada
      '+19005550121', // US premium rate
      '+447012345678', // UK personal number (070)
      '+4915112345678', // Germany, not allowed by default
    ]) {
      const { error } = await clientFor(server).auth.signUp({ phone, password: PASSWORD });
      expect(error, phone).toMatchObject({ status: 422, code: 'sms_send_failed' });
      const { rows } = await server.db.query(`select 1 from auth.users where phone = $1`, [
        phone.slice(1),
      ]);
      expect(rows, phone).toHaveLength(0);
    }
    for (const phone of ['+447911123456', '+16045550121']) {
      const { error } = await clientFor(server).auth.signUp({ phone, password: PASSWORD });
      expect(error, phone).toBeNull();
    }
    const supabase = await emailUser(server);
    expect((await challengePhone(supabase, '+18095550121', 'abroad')).error).toMatchObject({
      status: 422,
      code: 'sms_send_failed',
    });
  });

  it('with SMS_PROVIDER=log writes the text, code included, to the log', async () => {
    const phone = '+15035550131';
    expect((await clientFor(server).auth.signUp({ phone, password: PASSWORD })).error).toBeNull();
    const sms = await latestMessage(server.db, phone, 'auth.sms_confirmation');
    await vi.waitFor(() => expect(log.lines.some((line) => line.outbox_id === sms.id)).toBe(true), {
      timeout: 10_000,
    });
    const line = log.lines.find((entry) => entry.outbox_id === sms.id);
    expect(String(line?.msg)).toContain(codeIn(sms));
  });
});

describe('the total and per-network SMS limits', () => {
  it('stop texts for the whole service past RATE_LIMIT_SMS_SENT_TOTAL an hour', async () => {
    const server = await startTestServer({
      env: { ...BASE_ENV, SMS_PROVIDER: 'log', RATE_LIMIT_SMS_SENT_TOTAL: '2' },
    });
    try {
      for (const phone of ['+14045550141', '+16175550141']) {
        const { error } = await clientFor(server).auth.signUp({ phone, password: PASSWORD });
        expect(error).toBeNull();
      }
      const { error } = await clientFor(server).auth.signUp({
        phone: '+17135550141',
        password: PASSWORD,
      });
      expect(error).toMatchObject(SMS_LIMIT);
    } finally {
      await server.close();
    }
  });

  it('count MFA challenges against the per-network limit (RATE_LIMIT_SMS_SENT)', async () => {
    const server = await startTestServer({
      env: { ...BASE_ENV, SMS_PROVIDER: 'log', RATE_LIMIT_SMS_SENT: '2' },
    });
    try {
      const first = await emailUser(server);
      expect((await challengePhone(first, '+14045550151', 'one')).error).toBeNull();
      expect((await challengePhone(first, '+16175550151', 'two')).error).toBeNull();
      const second = await emailUser(server);
      expect((await challengePhone(second, '+17135550151', 'three')).error).toMatchObject(
        SMS_LIMIT,
      );
    } finally {
      await server.close();
    }
  });
});
