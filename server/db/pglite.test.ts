import { describe, expect, it } from 'vitest';
import { openPGlite } from './pglite';

describe('openPGlite', () => {
  // A new in-memory database runs initdb in its thread: seconds on a busy machine.
  it(
    'loads a contrib extension only when asked, and then it works',
    { timeout: 60_000 },
    async () => {
      const db = await openPGlite('memory://', { extensions: ['pgcrypto'] });
      try {
        await db.exec(
          'create schema extensions; create extension pgcrypto with schema extensions;',
        );
        const { rows } = await db.query<{ ok: boolean }>(
          `select extensions.crypt('pw', h) = h as ok from (select extensions.crypt('pw', extensions.gen_salt('bf', 4)) h) s`,
        );
        expect(rows[0]?.ok).toBe(true);
      } finally {
        await db.close();
      }
    },
  );

  it('names the extensions it knows when asked for another', async () => {
    await expect(openPGlite('memory://', { extensions: ['postgis'] })).rejects.toThrow(
      /cannot load the extension "postgis" \(known: pgcrypto/,
    );
  });
});
