import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRole } from '../db/request-context';
import { withRequestContext } from '../db/request-context';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { bindingId, startPostgresChanges, syncCapture } from './postgres-changes';
import type {
  ChangeSubscription,
  ChannelAuth,
  PostgresChangeParams,
  PostgresChangesPayload,
  PostgresChangesService,
} from './types';

/**
 * Database changes at the module level, on both engines: real tables in the
 * publication, real writes, real row-level security. (The websocket and the
 * official client are tested end to end elsewhere.)
 */

let testDatabase: TestDatabase;
let service: PostgresChangesService;
const alice = randomUUID();
const bob = randomUUID();
const sam = randomUUID(); // an admin

function claimsOf(sub: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...extra,
  };
}

const auths: Record<string, ChannelAuth> = {
  alice: { role: 'authenticated', claims: claimsOf(alice) },
  bob: { role: 'authenticated', claims: claimsOf(bob) },
  sam: {
    role: 'authenticated',
    claims: claimsOf(sam, { aal: 'aal2', app_metadata: { role: 'admin' } }),
  },
  anon: { role: 'anon', claims: { role: 'anon' } },
  service: { role: 'service_role', claims: { role: 'service_role' } },
};

beforeAll(async () => {
  testDatabase = await cloneTestDatabase();
  const { db } = testDatabase;
  await db.query(
    `insert into auth.users (id, email, raw_user_meta_data, raw_app_meta_data)
     values ($1, $4, '{"full_name":"Alice Archer"}', '{}'),
            ($2, $5, '{"full_name":"Bob Baker"}', '{}'),
            ($3, $6, '{"full_name":"Sam Staff"}', '{"role":"admin"}')`,
    [
      alice,
      bob,
      sam,
      `alice-${alice}@example.com`,
      `bob-${bob}@example.com`,
      `sam-${sam}@example.com`,
    ],
  );
  await db.exec(`
    create table public.rt_notes (
      id serial primary key,
      owner uuid not null,
      body text,
      n int,
      amount numeric,
      at timestamptz,
      flag boolean,
      tag uuid,
      tags text[]
    );
    alter table public.rt_notes enable row level security;
    create policy "owners read their notes" on public.rt_notes for select to authenticated
      using (owner = (select auth.uid()));
    create table public.rt_open (id int primary key, label text);
    create table public.rt_full (id int primary key, label text, secret text);
    alter table public.rt_full replica identity full;
    create table public.rt_unpublished (id int primary key);
    alter publication supabase_realtime add table public.rt_notes, public.rt_open, public.rt_full;
  `);
  // Without a superuser's event trigger the server syncs after migrations; both must work.
  await syncCapture(db);
  service = await startPostgresChanges({
    db,
    logger: pino({ level: 'silent' }),
    pollIntervalMs: 200,
  });
});

afterAll(async () => {
  await service?.stop();
  await testDatabase?.drop();
});

interface Listener {
  events: PostgresChangesPayload[];
  subscription: ChangeSubscription;
  /** Waits until an event satisfies `predicate`; returns the events up to and with it. */
  until(predicate: (event: PostgresChangesPayload) => boolean): Promise<PostgresChangesPayload[]>;
}

async function listen(
  params: PostgresChangeParams[],
  who: keyof typeof auths | ChannelAuth = 'service',
  on: PostgresChangesService = service,
): Promise<Listener> {
  const events: PostgresChangesPayload[] = [];
  const waiters = new Set<() => void>();
  const auth = typeof who === 'string' ? auths[who]! : who;
  const subscription = await on.subscribe({
    topic: `realtime:test-${randomUUID()}`,
    params,
    auth: () => auth,
    deliver: (payload) => {
      events.push(payload);
      for (const waiter of waiters) waiter();
    },
  });
  return {
    events,
    subscription,
    until(predicate) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const index = events.findIndex(predicate);
          if (index < 0) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, index + 1));
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event; got ${JSON.stringify(events, null, 1)}`));
        }, 8000);
        if (!check()) waiters.add(check);
      });
    },
  };
}

const marker = (label: string) => (event: PostgresChangesPayload) =>
  event.data.table === 'rt_open' && event.data.record?.label === label;

async function writeMarker(label: string): Promise<void> {
  await testDatabase.db.query(`insert into public.rt_open (id, label) values ($1, $2)`, [
    Math.floor(Math.random() * 2 ** 31),
    label,
  ]);
}

const openBinding: PostgresChangeParams = { event: 'INSERT', schema: 'public', table: 'rt_open' };

describe('subscribing', () => {
  it('answers each binding in order with a stable id and Subscribed to PostgreSQL', async () => {
    const params: PostgresChangeParams[] = [
      { event: '*', schema: 'public', table: 'rt_notes' },
      { event: 'INSERT', schema: 'public', table: 'rt_open', filter: 'id=gt.5' },
      { event: '*', schema: 'public' },
    ];
    const { subscription } = await listen(params);
    expect(subscription.system).toEqual({
      extension: 'postgres_changes',
      status: 'ok',
      message: 'Subscribed to PostgreSQL',
    });
    expect(subscription.bindings).toEqual(params.map((p) => ({ ...p, id: bindingId(p) })));
    const ids = subscription.bindings.map((b) => b.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(Number.isInteger(id) && id >= 0 && id < 2 ** 31).toBe(true);
    const again = await listen(params);
    expect(again.subscription.bindings.map((b) => b.id)).toEqual(ids);
    subscription.close();
    again.subscription.close();
  });

  it.each([
    [
      'a table that is not published',
      { event: '*', schema: 'public', table: 'rt_unpublished' },
      'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: *, schema: public, table: rt_unpublished, filters: [], select: nil]',
    ],
    [
      'a table that does not exist',
      { event: 'INSERT', schema: 'public', table: 'nope' },
      'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: INSERT, schema: public, table: nope, filters: [], select: nil]',
    ],
    [
      'an unknown column',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'nope=eq.1' },
      'Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [event: *, schema: public, table: rt_notes, filters: [{"nope", "eq", "1", false}], select: nil]. Exception: ERROR P0001 (raise_exception) invalid column for filter nope',
    ],
    [
      'a value of the wrong type',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'n=eq.abc' },
      'Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [event: *, schema: public, table: rt_notes, filters: [{"n", "eq", "abc", false}], select: nil]. Exception: ERROR 22P02 (invalid_text_representation) invalid input syntax for type integer: "abc"',
    ],
    [
      'an unknown operator',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'body=foo.hey' },
      'Error parsing `filter` params: ["foo", "hey"]',
    ],
    [
      'a filter without an operator',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'undefined' },
      'Error parsing `filter` params: ["undefined"]',
    ],
    [
      'an in list without parentheses',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'n=in.1,2' },
      'Error parsing `filter` params: `in` filter value must be wrapped by parentheses',
    ],
    [
      'an operator Supabase has but this server does not',
      { event: '*', schema: 'public', table: 'rt_notes', filter: 'body=like.a%' },
      'Error parsing `filter` params: operator `like` is not supported by this server (use eq, neq, lt, lte, gt, gte or in)',
    ],
    [
      'neither schema nor table',
      { event: '*' } as PostgresChangeParams,
      'No subscription params provided. Please provide at least a `schema` or `table` to subscribe to: %{"event" => "*"}',
    ],
  ])('refuses %s with Supabase’s message', async (_name, params, message) => {
    const listener = await listen([openBinding, params as PostgresChangeParams]);
    expect(listener.subscription.system).toEqual({
      extension: 'postgres_changes',
      status: 'error',
      message,
    });
    expect(listener.subscription.bindings.map((b) => b.id)).toEqual([
      bindingId(openBinding),
      bindingId(params as PostgresChangeParams),
    ]);
    // As on Supabase, a failed binding leaves the whole channel unsubscribed.
    const watcher = await listen([openBinding]);
    await writeMarker('after refusal');
    await watcher.until(marker('after refusal'));
    expect(listener.events).toEqual([]);
    watcher.subscription.close();
  });

  it('never throws on malformed input', async () => {
    const empty = await service.subscribe({
      topic: 'realtime:none',
      params: null as unknown as PostgresChangeParams[],
      auth: () => auths.service!,
      deliver: () => undefined,
    });
    expect(empty.bindings).toEqual([]);
    empty.close();
    for (const params of [
      [null],
      [42],
      [{ schema: 5, table: [] }],
      [{ event: '*', schema: 'public', table: 'rt_notes', filter: 'n=in.(' }],
    ]) {
      const subscription = await service.subscribe({
        topic: 'realtime:bad',
        params: params as unknown as PostgresChangeParams[],
        auth: () => auths.service!,
        deliver: () => undefined,
      });
      expect(subscription.system.status).toBe('error');
      subscription.close();
    }
    const throwingAuth = await service.subscribe({
      topic: 'realtime:bad-auth',
      params: [openBinding],
      auth: () => {
        throw new Error('token gone');
      },
      deliver: () => undefined,
    });
    expect(throwingAuth.system.status).toBe('error');
  });
});

describe('events', () => {
  it('delivers INSERT, UPDATE and DELETE with Supabase’s payload', async () => {
    const all = await listen([{ event: '*', schema: 'public', table: 'rt_notes' }]);
    const id = all.subscription.bindings[0]!.id;
    const { db } = testDatabase;
    const inserted = await db.query<{ id: number }>(
      `insert into public.rt_notes (owner, body, n, amount, at, flag, tag, tags)
       values ($1, 'first', 7, 12.50, '2024-05-01 10:00:00.123456+02', true, $2, '{a,"b c"}') returning id`,
      [alice, '6f1d3c52-6a4e-4c3b-9f3e-9a8f2b0c1d2e'],
    );
    const rowId = inserted.rows[0]!.id;
    await db.query(`update public.rt_notes set body = 'second' where id = $1`, [rowId]);
    await db.query(`delete from public.rt_notes where id = $1`, [rowId]);
    const events = await all.until(
      (e) => e.data.type === 'DELETE' && e.data.old_record?.id === rowId,
    );
    const mine = events.filter((e) => (e.data.record?.id ?? e.data.old_record?.id) === rowId);
    expect(mine.map((e) => e.data.type)).toEqual(['INSERT', 'UPDATE', 'DELETE']);

    const [insert, update, del] = mine as [
      PostgresChangesPayload,
      PostgresChangesPayload,
      PostgresChangesPayload,
    ];
    expect(insert.ids).toEqual([id]);
    expect(insert.data).toEqual({
      schema: 'public',
      table: 'rt_notes',
      commit_timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      type: 'INSERT',
      columns: [
        { name: 'id', type: 'int4' },
        { name: 'owner', type: 'uuid' },
        { name: 'body', type: 'text' },
        { name: 'n', type: 'int4' },
        { name: 'amount', type: 'numeric' },
        { name: 'at', type: 'timestamptz' },
        { name: 'flag', type: 'bool' },
        { name: 'tag', type: 'uuid' },
        { name: 'tags', type: '_text' },
      ],
      record: {
        id: rowId,
        owner: alice,
        body: 'first',
        n: 7,
        amount: 12.5,
        at: expect.stringMatching(/^2024-05-01T\d\d:00:00\.123456[+-]\d\d:\d\d$/),
        flag: true,
        tag: '6f1d3c52-6a4e-4c3b-9f3e-9a8f2b0c1d2e',
        tags: ['a', 'b c'],
      },
      errors: null,
    });
    expect(new Date(insert.data.commit_timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(new Date(insert.data.record!.at as string).toISOString()).toBe(
      '2024-05-01T08:00:00.123Z',
    );
    expect(insert.data).not.toHaveProperty('old_record');
    // Without REPLICA IDENTITY FULL, the old record is the primary key.
    expect(update.data.record).toMatchObject({ id: rowId, body: 'second' });
    expect(update.data.old_record).toEqual({ id: rowId });
    expect(del.data.old_record).toEqual({ id: rowId });
    expect(del.data).not.toHaveProperty('record');
    all.subscription.close();
  });

  it('delivers only the events a binding names, with every matching binding id', async () => {
    const listener = await listen([
      { event: 'INSERT', schema: 'public', table: 'rt_open' },
      { event: 'DELETE', schema: 'public', table: 'rt_open' },
      { event: '*', schema: 'public', table: 'rt_open' },
      { event: 'UPDATE', schema: 'public', table: 'rt_full' },
    ]);
    const [insertId, deleteId, allId] = listener.subscription.bindings.map((b) => b.id);
    const { db } = testDatabase;
    await db.query(`insert into public.rt_open (id, label) values (-1, 'events')`);
    await db.query(`update public.rt_open set label = 'events 2' where id = -1`);
    await db.query(`delete from public.rt_open where id = -1`);
    await db.query(`insert into public.rt_full (id, label) values (-1, 'not an update')`);
    const events = await listener.until((e) => e.data.type === 'DELETE');
    expect(events.map((e) => [e.data.type, e.ids.sort()])).toEqual([
      ['INSERT', [insertId, allId].sort()],
      ['UPDATE', [allId]],
      ['DELETE', [deleteId, allId].sort()],
    ]);
    await db.query(`delete from public.rt_full where id = -1`);
    listener.subscription.close();
  });

  it('sees a whole schema with schema-only bindings', async () => {
    const listener = await listen([{ event: 'INSERT', schema: 'public' }]);
    await testDatabase.db.query(
      `insert into public.rt_full (id, label) values (-2, 'schema-wide')`,
    );
    await writeMarker('schema-wide');
    const events = await listener.until(marker('schema-wide'));
    expect(events.map((e) => e.data.table)).toContain('rt_full');
    listener.subscription.close();
  });

  it('delivers nothing from a rolled-back transaction', async () => {
    const listener = await listen([
      { event: '*', schema: 'public', table: 'rt_notes' },
      openBinding,
    ]);
    await testDatabase.db
      .transaction(async (tx) => {
        await tx.query(`insert into public.rt_notes (owner, body) values ($1, 'rolled back')`, [
          alice,
        ]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await writeMarker('after rollback');
    const events = await listener.until(marker('after rollback'));
    expect(events.filter((e) => e.data.table === 'rt_notes')).toEqual([]);
    listener.subscription.close();
  });

  it('sends the whole old row of a REPLICA IDENTITY FULL table', async () => {
    const listener = await listen([{ event: '*', schema: 'public', table: 'rt_full' }]);
    const { db } = testDatabase;
    await db.query(`insert into public.rt_full (id, label, secret) values (10, 'a', 's')`);
    await db.query(`update public.rt_full set label = 'b' where id = 10`);
    await db.query(`delete from public.rt_full where id = 10`);
    const events = await listener.until(
      (e) => e.data.type === 'DELETE' && e.data.old_record?.id === 10,
    );
    const mine = events.filter((e) => (e.data.record?.id ?? e.data.old_record?.id) === 10);
    expect(mine[1]!.data.old_record).toEqual({ id: 10, label: 'a', secret: 's' });
    expect(mine[1]!.data.record).toEqual({ id: 10, label: 'b', secret: 's' });
    expect(mine[2]!.data.old_record).toEqual({ id: 10, label: 'b', secret: 's' });
    listener.subscription.close();
  });

  it('captures a table published after start, without a restart', async () => {
    const { db } = testDatabase;
    await db.exec(`
      create table public.rt_later (id bigint primary key, label text);
      alter publication supabase_realtime add table public.rt_later;
    `);
    // The event trigger (superuser) captures it at once; syncCapture is what the server runs otherwise.
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::int as count from pg_trigger
       where tgrelid = 'public.rt_later'::regclass and tgname = '_realtime_capture'`,
    );
    if (rows[0]!.count === 0) await syncCapture(db);
    const listener = await listen([{ event: 'INSERT', schema: 'public', table: 'rt_later' }]);
    expect(listener.subscription.system.status).toBe('ok');
    await db.query(`insert into public.rt_later (id, label) values (1, 'later')`);
    const [event] = await listener.until((e) => e.data.table === 'rt_later');
    expect(event!.data.record).toEqual({ id: 1, label: 'later' });
    expect(event!.data.columns).toEqual([
      { name: 'id', type: 'int8' },
      { name: 'label', type: 'text' },
    ]);
    // Taken out of the publication, its trigger goes too.
    await db.exec(`alter publication supabase_realtime drop table public.rt_later`);
    await syncCapture(db);
    const left = await db.query<{ count: number }>(
      `select count(*)::int as count from pg_trigger
       where tgrelid = 'public.rt_later'::regclass and tgname = '_realtime_capture'`,
    );
    expect(left.rows[0]!.count).toBe(0);
    listener.subscription.close();
  });
});

describe('filters', () => {
  const table = { event: 'INSERT', schema: 'public', table: 'rt_notes' } as const;

  async function matches(filters: string[], rows: string[]): Promise<Record<string, string[]>> {
    const listeners = await Promise.all(
      filters.map((filter) => listen([{ ...table, filter }, openBinding])),
    );
    for (const listener of listeners) expect(listener.subscription.system.status).toBe('ok');
    const label = randomUUID();
    for (const values of rows) {
      await testDatabase.db.query(
        `insert into public.rt_notes (owner, body, n, amount, at, flag, tag)
         select $1, body, n, amount, at, flag, tag from (values ${values}) v(body, n, amount, at, flag, tag)`,
        [alice],
      );
    }
    await writeMarker(label);
    const result: Record<string, string[]> = {};
    for (const [i, listener] of listeners.entries()) {
      const events = await listener.until(marker(label));
      result[filters[i]!] = events
        .filter((e) => e.data.table === 'rt_notes')
        .map((e) => e.data.record!.body as string);
      listener.subscription.close();
    }
    return result;
  }

  const row = (body: string, n: number, amount: string, at: string, flag: boolean, tag: string) =>
    `('${body}'::text, ${n}, ${amount}::numeric, '${at}'::timestamptz, ${flag}, '${tag}'::uuid)`;
  const rows = [
    row('one', 1, '1.5', '2024-01-01T00:00:00Z', true, '00000000-0000-4000-8000-000000000001'),
    row('two', 2, '10', '2024-01-01T01:00:00+01:00', false, '00000000-0000-4000-8000-000000000002'),
    row('c d', 10, '2.25', '2024-06-01T12:00:00.5Z', true, '00000000-0000-4000-8000-00000000000a'),
  ];

  it('compares numbers as numbers', async () => {
    expect(
      await matches(
        [
          'n=eq.2',
          'n=neq.2',
          'n=lt.2',
          'n=lte.2',
          'n=gt.2',
          'n=gte.2',
          'n=in.(1,10)',
          'amount=gt.2',
          'amount=eq.10.0',
        ],
        rows,
      ),
    ).toEqual({
      'n=eq.2': ['two'],
      'n=neq.2': ['one', 'c d'],
      'n=lt.2': ['one'],
      'n=lte.2': ['one', 'two'],
      'n=gt.2': ['c d'],
      'n=gte.2': ['two', 'c d'],
      'n=in.(1,10)': ['one', 'c d'],
      'amount=gt.2': ['two', 'c d'],
      'amount=eq.10.0': ['two'],
    });
  });

  it('compares timestamps as instants, text as text, booleans and uuids', async () => {
    expect(
      await matches(
        [
          'at=eq.2024-01-01T00:00:00Z',
          'at=gt.2024-01-01 00:00:00+00',
          'at=lte.2024-06-01T14:00:00.5+02:00',
          'body=eq.two',
          'body=in.(one,"c d")',
          'body=gt.one',
          'flag=eq.true',
          'flag=neq.true',
          'tag=eq.00000000-0000-4000-8000-00000000000A',
          'n=not.eq.2',
        ],
        rows,
      ),
    ).toEqual({
      // 'two' is 2024-01-01T01:00+01:00, the same instant as 'one'.
      'at=eq.2024-01-01T00:00:00Z': ['one', 'two'],
      'at=gt.2024-01-01 00:00:00+00': ['c d'],
      'at=lte.2024-06-01T14:00:00.5+02:00': ['one', 'two', 'c d'],
      'body=eq.two': ['two'],
      'body=in.(one,"c d")': ['one', 'c d'],
      'body=gt.one': ['two'],
      'flag=eq.true': ['one', 'c d'],
      'flag=neq.true': ['two'],
      'tag=eq.00000000-0000-4000-8000-00000000000A': ['c d'],
      'n=not.eq.2': ['one', 'c d'],
    });
  });

  it('combines comma-separated filters with AND and matches DELETE on the old row', async () => {
    expect(await matches(['n=gte.1,n=lt.10'], rows)).toEqual({ 'n=gte.1,n=lt.10': ['one', 'two'] });
    const { db } = testDatabase;
    const inserted = await db.query<{ id: number }>(
      `insert into public.rt_notes (owner, body, n) values ($1, 'doomed', 4242) returning id`,
      [alice],
    );
    const listener = await listen([
      { event: 'DELETE', schema: 'public', table: 'rt_notes', filter: 'n=eq.4242' },
    ]);
    await db.query(`delete from public.rt_notes where n in (4242)`);
    const [event] = await listener.until((e) => e.data.type === 'DELETE');
    expect(event!.data.old_record).toEqual({ id: inserted.rows[0]!.id });
    listener.subscription.close();
  });
});

describe('row-level security', () => {
  it('gives each user only their own rows, DELETE old records included', async () => {
    const binding = { event: '*', schema: 'public', table: 'rt_notes' };
    const a = await listen([binding, openBinding], 'alice');
    const b = await listen([binding, openBinding], 'bob');
    const { db } = testDatabase;
    const ids = await db.query<{ id: number; owner: string }>(
      `insert into public.rt_notes (owner, body) values ($1, 'for alice'), ($2, 'for bob') returning id, owner`,
      [alice, bob],
    );
    const aliceId = ids.rows.find((r) => r.owner === alice)!.id;
    const bobId = ids.rows.find((r) => r.owner === bob)!.id;
    await db.query(`update public.rt_notes set body = body || '!' where id = any($1::int[])`, [
      [aliceId, bobId],
    ]);
    await db.query(`delete from public.rt_notes where id = any($1::int[])`, [[aliceId, bobId]]);
    await writeMarker('rls users');
    for (const [listener, own, other] of [
      [a, aliceId, bobId],
      [b, bobId, aliceId],
    ] as const) {
      const events = (await listener.until(marker('rls users'))).filter(
        (e) => e.data.table === 'rt_notes',
      );
      const touched = events.map((e) => e.data.record?.id ?? e.data.old_record?.id);
      expect(touched).not.toContain(other);
      expect(touched).toContain(own);
      const mine = events.filter((e) => (e.data.record?.id ?? e.data.old_record?.id) === own);
      expect(mine.map((e) => e.data.type)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
      expect(mine[2]!.data.old_record).toEqual({ id: own });
      listener.subscription.close();
    }
  });

  it('checks UPDATE against the new row, and the old one for old_record', async () => {
    const binding = { event: 'UPDATE', schema: 'public', table: 'rt_notes' };
    const a = await listen([binding, openBinding], 'alice');
    const b = await listen([binding, openBinding], 'bob');
    const { db } = testDatabase;
    const inserted = await db.query<{ id: number }>(
      `insert into public.rt_notes (owner, body) values ($1, 'handed over') returning id`,
      [alice],
    );
    const id = inserted.rows[0]!.id;
    await db.query(`update public.rt_notes set owner = $2 where id = $1`, [id, bob]);
    await writeMarker('handover');
    const aliceEvents = (await a.until(marker('handover'))).filter(
      (e) => e.data.table === 'rt_notes',
    );
    const bobEvents = (await b.until(marker('handover'))).filter(
      (e) => e.data.table === 'rt_notes',
    );
    expect(aliceEvents).toEqual([]);
    expect(bobEvents).toHaveLength(1);
    expect(bobEvents[0]!.data.record).toMatchObject({ id, owner: bob });
    expect(bobEvents[0]!.data).not.toHaveProperty('old_record');
    a.subscription.close();
    b.subscription.close();
  });

  it('keeps admin-only leads from anon and other users, and gives them to admins', async () => {
    const binding = { event: '*', schema: 'public', table: 'leads' };
    const listeners = {
      anon: await listen([binding, openBinding], 'anon'),
      alice: await listen([binding, openBinding], 'alice'),
      sam: await listen([binding, openBinding], 'sam'),
      service: await listen([binding, openBinding], 'service'),
    };
    for (const listener of Object.values(listeners)) {
      expect(listener.subscription.system.status).toBe('ok');
    }
    const { db } = testDatabase;
    const lead = await db.query<{ id: string }>(
      `insert into public.leads (full_name, email, company, team_size, monthly_call_volume, consent_at)
       values ('Lena Lead', 'lena@example.com', 'Lead Co', '1-5', 'under-500', now()) returning id`,
    );
    await db.query(`delete from public.leads where id = $1`, [lead.rows[0]!.id]);
    await writeMarker('leads');
    const leadsOf = async (name: keyof typeof listeners) =>
      (await listeners[name].until(marker('leads'))).filter((e) => e.data.table === 'leads');
    expect(await leadsOf('anon')).toEqual([]);
    expect(await leadsOf('alice')).toEqual([]);
    for (const name of ['sam', 'service'] as const) {
      const events = await leadsOf(name);
      expect(events.map((e) => e.data.type)).toEqual(['INSERT', 'DELETE']);
      expect(events[0]!.data.record).toMatchObject({ full_name: 'Lena Lead', company: 'Lead Co' });
      expect(events[1]!.data.old_record).toEqual({ id: lead.rows[0]!.id });
    }
    for (const listener of Object.values(listeners)) listener.subscription.close();
  });

  it('drops columns the role may not select', async () => {
    const { db } = testDatabase;
    await db.exec(`
      revoke select on public.rt_full from authenticated;
      grant select (id, label) on public.rt_full to authenticated;
    `);
    try {
      const listener = await listen(
        [{ event: 'INSERT', schema: 'public', table: 'rt_full' }],
        'alice',
      );
      await db.query(
        `insert into public.rt_full (id, label, secret) values (20, 'shown', 'hidden')`,
      );
      const [event] = await listener.until((e) => e.data.record?.id === 20);
      expect(event!.data.record).toEqual({ id: 20, label: 'shown' });
      expect(event!.data.columns.map((c) => c.name)).toEqual(['id', 'label']);
      listener.subscription.close();
    } finally {
      await db.exec(`grant select on public.rt_full to authenticated`);
    }
  });

  it('skips a subscriber whose policy fails, and keeps delivering to the others', async () => {
    const { db } = testDatabase;
    await db.exec(`
      create table public.rt_fragile (id int primary key, owner uuid);
      alter table public.rt_fragile enable row level security;
      create policy "fails for bob" on public.rt_fragile for select to authenticated
        using (1 / (case when (select auth.uid()) = '${bob}' then 0 else 1 end) = 1);
      alter publication supabase_realtime add table public.rt_fragile;
    `);
    await syncCapture(db);
    const binding = { event: 'INSERT', schema: 'public', table: 'rt_fragile' };
    const a = await listen([binding, openBinding], 'alice');
    const b = await listen([binding, openBinding], 'bob');
    await db.query(`insert into public.rt_fragile (id) values (1)`);
    await writeMarker('fragile');
    expect((await a.until(marker('fragile'))).map((e) => e.data.table)).toContain('rt_fragile');
    expect((await b.until(marker('fragile'))).map((e) => e.data.table)).not.toContain('rt_fragile');
    a.subscription.close();
    b.subscription.close();
  });

  it('reads auth at each delivery (a refreshed token changes what arrives)', async () => {
    let auth: ChannelAuth = auths.bob!;
    const events: PostgresChangesPayload[] = [];
    const subscription = await service.subscribe({
      topic: 'realtime:refresh',
      params: [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }],
      auth: () => auth,
      deliver: (payload) => events.push(payload),
    });
    auth = auths.alice!;
    await testDatabase.db.query(
      `insert into public.rt_notes (owner, body) values ($1, 'refreshed')`,
      [alice],
    );
    await expect.poll(() => events.map((e) => e.data.record?.body)).toContain('refreshed');
    subscription.close();
  });
});

describe('the stream', () => {
  it('sends nothing to a closed subscription and survives a throwing deliver', async () => {
    const closed = await listen([openBinding]);
    closed.subscription.close();
    closed.subscription.close();
    const throwing = await service.subscribe({
      topic: 'realtime:throws',
      params: [openBinding],
      auth: () => auths.service!,
      deliver: () => {
        throw new Error('socket gone');
      },
    });
    const watcher = await listen([openBinding]);
    await writeMarker('closed');
    await watcher.until(marker('closed'));
    await writeMarker('still flowing');
    await watcher.until(marker('still flowing'));
    expect(closed.events).toEqual([]);
    throwing.close();
    watcher.subscription.close();
  });

  it('delivers every change once per subscriber with two services on one database', async () => {
    const second = await startPostgresChanges({
      db: testDatabase.db,
      logger: pino({ level: 'silent' }),
      pollIntervalMs: 200,
    });
    try {
      const one = await listen([openBinding], 'service');
      const two = await listen([openBinding], 'service', second);
      for (let i = 0; i < 20; i++) await writeMarker(`burst ${i}`);
      const events1 = await one.until(marker('burst 19'));
      const events2 = await two.until(marker('burst 19'));
      await writeMarker('burst end');
      await one.until(marker('burst end'));
      await two.until(marker('burst end'));
      const labels = (events: PostgresChangesPayload[]) =>
        events.map((e) => e.data.record!.label).filter((l) => String(l).startsWith('burst '));
      const expected = Array.from({ length: 20 }, (_, i) => `burst ${i}`);
      expect(labels(events1)).toEqual(expected);
      expect(labels(events2)).toEqual(expected);
      expect(labels(one.events)).toEqual([...expected, 'burst end']);
      one.subscription.close();
      two.subscription.close();
    } finally {
      await second.stop();
    }
  });

  it('delivers a burst written in one transaction, in order', async () => {
    const listener = await listen([openBinding], 'service');
    await testDatabase.db.query(
      `insert into public.rt_open (id, label) select 100000 + g, 'bulk ' || g from generate_series(1, 1200) g`,
    );
    const events = await listener.until(marker('bulk 1200'));
    const bulk = events
      .map((e) => e.data.record!.label)
      .filter((l) => String(l).startsWith('bulk '));
    expect(bulk).toEqual(Array.from({ length: 1200 }, (_, i) => `bulk ${i + 1}`));
    listener.subscription.close();
  });

  it('prunes old changes and stops cleanly', async () => {
    const { db } = testDatabase;
    await db.query(
      `update _realtime.changes set commit_timestamp = now() - interval '1 hour' where id in (select id from _realtime.changes order by id limit 5)`,
    );
    const pruned = await db.query<{ count: number | string }>(
      `select _realtime.prune(interval '5 minutes') as count`,
    );
    expect(Number(pruned.rows[0]!.count)).toBe(5);
    const other = await startPostgresChanges({ db, logger: pino({ level: 'silent' }) });
    const listener = await listen([openBinding], 'service', other);
    await other.stop();
    await writeMarker('after stop');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(listener.events).toEqual([]);
  });

  it('is private: the API roles cannot read the change log', async () => {
    for (const role of ['anon', 'authenticated', 'service_role'] as ApiRole[]) {
      await expect(
        withRequestContext(
          testDatabase.db,
          { role, claims: {}, method: 'GET', path: '/', headers: {} },
          (tx) => tx.query('select * from _realtime.changes limit 1'),
        ),
      ).rejects.toMatchObject({ code: '42501' });
    }
  });
});
