import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { AuthError } from './errors';
import { hashPassword, verifyPassword } from './passwords';

describe('the password pool', () => {
  it('refuses work past its queue with 429 instead of queueing without end', async () => {
    const threads = Math.max(1, availableParallelism());
    // One queue's worth per thread (32) and the threads themselves, and then some.
    const burst = threads * 34 + 40;
    const results = await Promise.allSettled(
      Array.from({ length: burst }, (_, n) => hashPassword(`password number ${n}`)),
    );
    const refused = results.filter((result) => result.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) {
      const reason = (result as PromiseRejectedResult).reason as AuthError;
      expect(reason).toBeInstanceOf(AuthError);
      expect(reason).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    }
    const hashed = results.filter((result) => result.status === 'fulfilled');
    expect(hashed.length).toBeGreaterThanOrEqual(threads * 32);
    // The pool works normally again once the burst has drained.
    const hash = await hashPassword('after the burst');
    expect(await verifyPassword('after the burst', hash)).toBe(true);
  }, 30_000);
});
