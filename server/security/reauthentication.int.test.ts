import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, codeIn, latestMessage, uniqueEmail } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Security issue 24, finding 5: reauthentication codes (the `nonce` of
 * PUT /user) are counted like any emailed code: one dies after 5 wrong guesses,
 * a user gets 10 wrong ones an hour and a client network 30.
 */

const PASSWORD = 'a long and unusual passphrase 7';
const ENV = {
  MAILER_AUTOCONFIRM: 'true',
  MAILER_MAX_FREQUENCY: '0',
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
  RATE_LIMIT_EMAIL_SENT: '1000',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: ENV });
});
afterAll(() => server?.close());

async function signedUp(
  on: TestServer = server,
): Promise<{ supabase: SupabaseClient; email: string }> {
  const supabase = clientFor(on);
  const email = uniqueEmail('reauth');
  const { error } = await supabase.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { supabase, email };
}

/** A fresh reauthentication code, read from the outbox. */
async function nonceFor(on: TestServer, supabase: SupabaseClient, email: string): Promise<string> {
  expect((await supabase.auth.reauthenticate()).error).toBeNull();
  return codeIn(await latestMessage(on.db, email, 'auth.reauthentication'));
}

function wrong(nonce: string, n: number): string {
  const candidate = String((Number(nonce) + n) % 10 ** nonce.length).padStart(nonce.length, '0');
  return candidate;
}

describe('reauthentication codes', () => {
  it('die after 5 wrong guesses: the right code is then refused, and a new one works', async () => {
    const { supabase, email } = await signedUp();
    const nonce = await nonceFor(server, supabase, email);
    for (let n = 1; n <= 5; n += 1) {
      const { error } = await supabase.auth.updateUser({
        password: `new passphrase number ${n}`,
        nonce: wrong(nonce, n),
      });
      expect(error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    }
    const late = await supabase.auth.updateUser({ password: 'the right one, too late', nonce });
    expect(late.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });

    const fresh = await nonceFor(server, supabase, email);
    const { error } = await supabase.auth.updateUser({
      password: 'the right one, in time',
      nonce: fresh,
    });
    expect(error).toBeNull();
  });

  it('are counted per user: 10 wrong ones an hour, then 429 even for the right code', async () => {
    const { supabase, email } = await signedUp();
    // An empty password checks the code without changing anything: it must count too.
    for (let round = 0; round < 2; round += 1) {
      const nonce = await nonceFor(server, supabase, email);
      for (let n = 1; n <= 5; n += 1) {
        const { error } = await supabase.auth.updateUser({ password: '', nonce: wrong(nonce, n) });
        expect(error).toMatchObject({ code: 'reauthentication_not_valid' });
      }
    }
    const nonce = await nonceFor(server, supabase, email);
    const refused = await supabase.auth.updateUser({ password: 'a brand new passphrase', nonce });
    expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('that are right use up nothing', async () => {
    const { supabase, email } = await signedUp();
    for (let n = 1; n <= 12; n += 1) {
      const nonce = await nonceFor(server, supabase, email);
      const { error } = await supabase.auth.updateUser({ password: '', nonce });
      expect(error).toBeNull();
    }
  });

  it('are counted per client network: 30 wrong ones an hour across its accounts', async () => {
    const own = await startTestServer({ env: ENV });
    try {
      for (let account = 0; account < 3; account += 1) {
        const { supabase, email } = await signedUp(own);
        for (let round = 0; round < 2; round += 1) {
          const nonce = await nonceFor(own, supabase, email);
          for (let n = 1; n <= 5; n += 1) {
            const { error } = await supabase.auth.updateUser({
              password: '',
              nonce: wrong(nonce, n),
            });
            expect(error).toMatchObject({ code: 'reauthentication_not_valid' });
          }
        }
      }
      const { supabase, email } = await signedUp(own);
      const nonce = await nonceFor(own, supabase, email);
      const refused = await supabase.auth.updateUser({ password: '', nonce: wrong(nonce, 1) });
      expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    } finally {
      await own.close();
    }
  });
});
