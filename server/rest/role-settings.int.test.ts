import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../testing/capture-logger';
import { testDatabaseKind } from '../testing/harness';
import { startRestTestServer, type RestTestServer } from './testing/rest-server';

/**
 * The `authenticator` role (platform migration 0011) and PostgREST's
 * in-database settings read from it (`alter role authenticator set pgrst.…`),
 * on PGlite and PostgreSQL, reloaded on `NOTIFY pgrst`. On PostgreSQL the
 * roles belong to the whole cluster, which other test databases share: the
 * settings here are made `in database` this one (PostgREST reads both kinds).
 */

let rest: RestTestServer;
const log = captureLogger();

beforeAll(async () => {
  rest = await startRestTestServer({ logger: log.logger });
});
afterAll(() => rest?.close());

/** `alter role authenticator in database <this one> set|reset pgrst.<key>`. */
async function setting(key: string, value: string | null): Promise<void> {
  const action = value === null ? `reset pgrst.${key}` : `set pgrst.${key} = %L`;
  await rest.server.db.exec(
    `do $$ begin execute format('alter role authenticator in database %I ${action}',
       current_database()${value === null ? '' : `, ${quote(value)}`}); end $$`,
  );
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

async function notify(payload: string): Promise<void> {
  await rest.server.db.query(`select pg_notify('pgrst', $1)`, [payload]);
}

async function aggregatesStatus(): Promise<number> {
  return (await rest.service.from('books').select('count()')).status;
}

describe('the authenticator role', () => {
  it('exists without login, without inheritance, granted the three API roles', async () => {
    const role = await rest.server.db.query<{ rolcanlogin: boolean; rolinherit: boolean }>(
      `select rolcanlogin, rolinherit from pg_roles where rolname = 'authenticator'`,
    );
    expect(role.rows).toEqual([{ rolcanlogin: false, rolinherit: false }]);
    const granted = await rest.server.db.query<{ rolname: string }>(
      `select r.rolname from pg_auth_members m
       join pg_roles r on r.oid = m.roleid join pg_roles a on a.oid = m.member
       where a.rolname = 'authenticator' order by r.rolname`,
    );
    expect(granted.rows.map((row) => row.rolname)).toEqual([
      'anon',
      'authenticated',
      'service_role',
    ]);
  });

  it('takes the statement a Supabase schema makes, unchanged', async () => {
    const statement = `alter role authenticator set pgrst.db_aggregates_enabled = true`;
    if (testDatabaseKind() === 'pglite') {
      await rest.server.db.exec(statement);
      await rest.server.db.exec(`alter role authenticator reset pgrst.db_aggregates_enabled`);
    } else {
      // For every database of the shared cluster: made, then undone, in one transaction.
      await rest.server.db.transaction(async (tx) => {
        await tx.exec(statement);
        const seen = await tx.query<{ setconfig: string[] }>(
          `select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
           where r.rolname = 'authenticator' and s.setdatabase = 0`,
        );
        expect(seen.rows[0]?.setconfig).toContain('pgrst.db_aggregates_enabled=true');
        await tx.exec(`alter role authenticator reset pgrst.db_aggregates_enabled`);
      });
    }
  });
});

describe("PostgREST's settings from pg_db_role_setting", () => {
  it('enables aggregates on reload config, and disables them again on reload schema', async () => {
    expect(await aggregatesStatus()).toBe(400);
    await setting('db_aggregates_enabled', 'true');
    await notify('reload config');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(200);
    const { data } = await rest.service.from('books').select('count()');
    expect(data).toEqual([{ count: expect.any(Number) as number }]);

    await setting('db_aggregates_enabled', null);
    await notify('reload schema');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(400);
  });

  it('reads any case of true, and an integer above 0, as PostgREST coerces booleans', async () => {
    await setting('db_aggregates_enabled', 'TRUE');
    await notify('reload config');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(200);
    await setting('db_aggregates_enabled', '0');
    await notify('reload config');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(400);
    await setting('db_aggregates_enabled', '1');
    await notify('reload config');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(200);
    await setting('db_aggregates_enabled', null);
    await notify('reload config');
    await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(400);
  });

  it('ignores unknown keys and falls back, with a warning, on bad values', async () => {
    const before = log.lines.length;
    await setting('db_max_rows', 'abc');
    await setting('db_aggregates_enabled', 'maybe');
    await setting('db_tx_end', 'sometimes');
    await setting('db_pre_request', 'x; drop table books');
    await setting('made_up_key', '1');
    await setting('jwt_secret', 'not read from here');
    await notify('reload config');
    await expect
      .poll(
        () =>
          log.lines
            .slice(before)
            .filter(
              (line) =>
                line.msg === 'ignoring an invalid in-database PostgREST setting: using the default',
            )
            .map((line) => line.setting)
            .sort(),
        { timeout: 5000 },
      )
      .toEqual([
        'pgrst.db_aggregates_enabled',
        'pgrst.db_max_rows',
        'pgrst.db_pre_request',
        'pgrst.db_tx_end',
      ]);
    const ignored = log.lines
      .slice(before)
      .find(
        (line) => line.msg === 'ignoring in-database PostgREST settings this server does not use',
      );
    expect(ignored?.settings).toEqual(['pgrst.jwt_secret', 'pgrst.made_up_key']);

    // The server answers as with the defaults: reads work, aggregates stay off.
    const read = await rest.service.from('books').select('id').limit(1);
    expect(read.error).toBeNull();
    expect(await aggregatesStatus()).toBe(400);

    for (const key of [
      'db_max_rows',
      'db_aggregates_enabled',
      'db_tx_end',
      'db_pre_request',
      'made_up_key',
      'jwt_secret',
    ]) {
      await setting(key, null);
    }
    await notify('reload config');
  });

  it.runIf(testDatabaseKind() === 'pglite')(
    'prefers the setting for this database over the one for all databases',
    async () => {
      await rest.server.db.exec(`alter role authenticator set pgrst.db_aggregates_enabled = false`);
      await setting('db_aggregates_enabled', 'true');
      await notify('reload config');
      await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(200);
      await rest.server.db.exec(`alter role authenticator reset pgrst.db_aggregates_enabled`);
      await setting('db_aggregates_enabled', null);
      await notify('reload config');
      await expect.poll(aggregatesStatus, { timeout: 5000 }).toBe(400);
    },
  );

  it('refuses an oversized value without trying it', async () => {
    const before = log.lines.length;
    await setting('db_plan_enabled', `true${' '.repeat(2000)}`);
    await notify('reload config');
    await expect
      .poll(
        () => log.lines.slice(before).some((line) => line.setting === 'pgrst.db_plan_enabled'),
        { timeout: 5000 },
      )
      .toBe(true);
    const explained = await rest.service.from('books').select('id').explain();
    expect(explained.status).toBe(406);
    await setting('db_plan_enabled', null);
  });

  it('caps the rows of a read and of a call at pgrst.db_max_rows', async () => {
    const ids = async () => (await rest.service.from('books').select('id').order('id')).data;
    expect(await ids()).toHaveLength(5);
    await setting('db_max_rows', '2');
    await notify('reload config');
    await expect.poll(ids, { timeout: 5000 }).toEqual([{ id: 1 }, { id: 2 }]);
    const limited = await rest.service.from('books').select('id').order('id').limit(4);
    expect(limited.data).toHaveLength(2);
    const offset = await rest.service
      .from('books')
      .select('id', { count: 'exact' })
      .order('id')
      .range(3, 4);
    expect(offset.data).toEqual([{ id: 4 }, { id: 5 }]);
    expect(offset.count).toBe(5);
    const call = await rest.service.rpc('books_by', { author: 'Ursula K. Le Guin' }).select('id');
    expect(call.error).toBeNull();
    expect((call.data as unknown[]).length).toBeLessThanOrEqual(2);
    await setting('db_max_rows', null);
    await notify('reload config');
    await expect.poll(ids, { timeout: 5000 }).toHaveLength(5);
  });

  it('ends writes as pgrst.db_tx_end says, overridable only with -allow-override', async () => {
    const insert = (title: string, prefer?: string) =>
      fetch(`${rest.restUrl}/tickets`, {
        method: 'POST',
        headers: {
          ...rest.serviceHeaders,
          'Content-Type': 'application/json',
          ...(prefer ? { Prefer: prefer } : {}),
        },
        body: JSON.stringify({ title }),
      });
    const kept = async (title: string) =>
      ((await rest.service.from('tickets').select('id').eq('title', title)).data ?? []).length;
    const stamp = Date.now();

    await setting('db_tx_end', 'rollback');
    await notify('reload config');
    await expect
      .poll(
        async () => {
          const title = `rolled ${stamp} ${Math.random()}`;
          expect((await insert(title)).status).toBe(201);
          return kept(title);
        },
        { timeout: 5000 },
      )
      .toBe(0);
    // Not overridable: tx=commit is ignored, and not reported as applied.
    const forced = await insert(`forced ${stamp}`, 'tx=commit');
    expect(forced.headers.get('preference-applied') ?? '').not.toMatch(/tx=/);
    expect(await kept(`forced ${stamp}`)).toBe(0);

    await setting('db_tx_end', 'rollback-allow-override');
    await notify('reload config');
    await expect
      .poll(
        async () => {
          const title = `committed ${stamp} ${Math.random()}`;
          await insert(title, 'tx=commit');
          return kept(title);
        },
        { timeout: 5000 },
      )
      .toBe(1);

    await setting('db_tx_end', 'commit');
    await notify('reload config');
    await expect
      .poll(
        async () => {
          const title = `ignored ${stamp} ${Math.random()}`;
          await insert(title, 'tx=rollback');
          return kept(title);
        },
        { timeout: 5000 },
      )
      .toBe(1);

    await setting('db_tx_end', null);
    await notify('reload config');
    await expect
      .poll(
        async () => {
          const title = `default ${stamp} ${Math.random()}`;
          await insert(title, 'tx=rollback');
          return kept(title);
        },
        { timeout: 5000 },
      )
      .toBe(0);
  });

  it('calls pgrst.db_pre_request before each statement, which may refuse the request', async () => {
    await rest.server.db.exec(
      `create function public.check_request() returns void language plpgsql as $$
       begin
         if current_setting('request.headers', true)::json->>'x-block' = 'yes' then
           raise exception 'blocked by pre-request' using errcode = 'P0001';
         end if;
       end $$;
       grant execute on function public.check_request() to anon, authenticated, service_role;`,
    );
    await setting('db_pre_request', 'public.check_request');
    await notify('reload config');
    const blocked = () =>
      fetch(`${rest.restUrl}/books?select=id`, {
        headers: { ...rest.anonHeaders, 'x-block': 'yes' },
      });
    await expect.poll(async () => (await blocked()).status, { timeout: 5000 }).toBe(400);
    expect(((await (await blocked()).json()) as { message: string }).message).toBe(
      'blocked by pre-request',
    );
    // Without the header: reads, writes and calls go through.
    expect((await rest.anon.from('books').select('id').limit(1)).error).toBeNull();
    expect((await rest.service.from('tickets').insert({ title: 'pre-request' })).error).toBeNull();
    expect((await rest.anon.rpc('add', { a: 1, b: 2 })).data).toBe(3);
    // A write is refused too, and nothing is written.
    const write = await fetch(`${rest.restUrl}/tickets`, {
      method: 'POST',
      headers: { ...rest.serviceHeaders, 'Content-Type': 'application/json', 'x-block': 'yes' },
      body: JSON.stringify({ title: 'blocked write' }),
    });
    expect(write.status).toBe(400);
    expect(
      (await rest.service.from('tickets').select('id').eq('title', 'blocked write')).data,
    ).toEqual([]);

    await setting('db_pre_request', null);
    await notify('reload config');
    await expect.poll(async () => (await blocked()).status, { timeout: 5000 }).toBe(200);
  });
});
