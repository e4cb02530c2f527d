import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Phone sign-up and sign-in by SMS as the SMS settings decide (decision 039):
 * without SMS_PROVIDER GoTrue's phone_provider_disabled answers, except for the
 * test numbers of SMS_TEST_OTP, which need no provider and are never texted;
 * SMS_PROVIDER=log (development only) queues texts and logs them.
 */

const PASSWORD = 'a long and unusual passphrase 7';
const TEST_NUMBER = '+14155550199';
const TEST_CODE = '246810';
const SECOND_TEST_NUMBER = '+14155550198';
const BASE_ENV = {
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
  SMS_TEST_OTP: `${TEST_NUMBER.slice(1)}=${TEST_CODE},${SECOND_TEST_NUMBER.slice(1)}:135790`,
};

let noProvider: TestServer;
let logProvider: TestServer;
let phoneOff: TestServer;
beforeAll(async () => {
  [noProvider, logProvider, phoneOff] = await Promise.all([
    startTestServer({ env: BASE_ENV }),
    startTestServer({ env: { ...BASE_ENV, SMS_PROVIDER: 'log' } }),
    startTestServer({ env: { ...BASE_ENV, EXTERNAL_PHONE_ENABLED: 'false' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([noProvider?.close(), logProvider?.close(), phoneOff?.close()]);
});

async function textsTo(server: TestServer, phone: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    `select count(*)::int as n from public.outbox_messages where channel = 'sms' and recipient = $1`,
    [phone],
  );
  return rows[0]!.n;
}

describe('without an SMS provider', () => {
  it("answers GoTrue's phone_provider_disabled for an ordinary number, and texts nothing", async () => {
    const phone = '+14155550123';
    const supabase = clientFor(noProvider);
    expect((await supabase.auth.signUp({ phone, password: PASSWORD })).error).toMatchObject({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Phone signups are disabled',
    });
    expect((await supabase.auth.signInWithOtp({ phone })).error).toMatchObject({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Unsupported phone provider',
    });
    expect(
      (await supabase.auth.signInWithPassword({ phone, password: PASSWORD })).error,
    ).toMatchObject({ status: 422, code: 'phone_provider_disabled' });
    expect((await supabase.auth.resend({ phone, type: 'sms' })).error).toMatchObject({
      status: 400,
      code: 'phone_provider_disabled',
    });
    expect(await textsTo(noProvider, phone)).toBe(0);
  });

  it('signs a test number up, in by code and by password, with its fixed code and no text', async () => {
    const supabase = clientFor(noProvider);
    const signUp = await supabase.auth.signUp({ phone: TEST_NUMBER, password: PASSWORD });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    const wrong = await supabase.auth.verifyOtp({
      phone: TEST_NUMBER,
      token: '000000',
      type: 'sms',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const confirmed = await supabase.auth.verifyOtp({
      phone: TEST_NUMBER,
      token: TEST_CODE,
      type: 'sms',
    });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data.user?.phone).toBe(TEST_NUMBER.slice(1));

    const otp = await clientFor(noProvider).auth.signInWithOtp({ phone: TEST_NUMBER });
    expect(otp.error).toBeNull();
    expect(otp.data.messageId).toBe('test-otp');
    const byCode = await clientFor(noProvider).auth.verifyOtp({
      phone: TEST_NUMBER,
      token: TEST_CODE,
      type: 'sms',
    });
    expect(byCode.error).toBeNull();
    expect(byCode.data.session).not.toBeNull();

    const byPassword = await clientFor(noProvider).auth.signInWithPassword({
      phone: TEST_NUMBER,
      password: PASSWORD,
    });
    expect(byPassword.error).toBeNull();
    expect(await textsTo(noProvider, TEST_NUMBER)).toBe(0);
  });

  it('still says phone is off in /settings (ordinary numbers cannot use it)', async () => {
    const settings = (await (await fetch(`${noProvider.url}/auth/v1/settings`)).json()) as {
      external: { phone: boolean };
      sms_provider: string;
    };
    expect(settings).toMatchObject({ external: { phone: false }, sms_provider: '' });
  });
});

describe('with EXTERNAL_PHONE_ENABLED=false', () => {
  it('refuses test numbers too', async () => {
    const supabase = clientFor(phoneOff);
    expect(
      (await supabase.auth.signUp({ phone: SECOND_TEST_NUMBER, password: PASSWORD })).error,
    ).toMatchObject({ status: 400, code: 'phone_provider_disabled' });
    expect((await supabase.auth.signInWithOtp({ phone: SECOND_TEST_NUMBER })).error).toMatchObject({
      status: 400,
      code: 'phone_provider_disabled',
    });
  });
});

describe('with SMS_PROVIDER=log', () => {
  it('queues a text for an ordinary number, and none for a test number', async () => {
    const phone = '+14155550124';
    const supabase = clientFor(logProvider);
    const sent = await supabase.auth.signInWithOtp({ phone });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).not.toBe('test-otp');
    expect(await textsTo(logProvider, phone)).toBe(1);

    const test = await supabase.auth.signInWithOtp({ phone: SECOND_TEST_NUMBER });
    expect(test.error).toBeNull();
    expect(test.data.messageId).toBe('test-otp');
    expect(await textsTo(logProvider, SECOND_TEST_NUMBER)).toBe(0);
    const verified = await supabase.auth.verifyOtp({
      phone: SECOND_TEST_NUMBER,
      token: '135790',
      type: 'sms',
    });
    expect(verified.error).toBeNull();

    const settings = (await (await fetch(`${logProvider.url}/auth/v1/settings`)).json()) as {
      external: { phone: boolean };
      sms_provider: string;
    };
    expect(settings).toMatchObject({ external: { phone: true }, sms_provider: 'log' });
  });
});
