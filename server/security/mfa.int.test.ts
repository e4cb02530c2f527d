import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFormsServer } from '../forms/forms-testing';
import { PASSWORD, createSignedInUser, passSecondFactor } from '../schema/test-world';
import { clientFor, uniqueEmail } from '../testing/clients';
import type { TestServer } from '../testing/harness';

/**
 * Security issue 22.
 *
 * Finding 2: two-factor authentication holds in SQL, not only in the browser.
 * A user with a verified factor whose session is aal1 (password only) reads,
 * writes and stores nothing, on every table of public with row-level security
 * (read from the catalog, so a table added later is covered without editing
 * this file) and in storage; the same user at aal2 gets what a user without a
 * factor gets; users without a factor are not affected; and every such table
 * carries the restrictive policy (decision 013).
 *
 * Finding 6: a workspace owner cannot add anyone to their workspace through
 * the API (membership will come from invitations the invited person accepts).
 */

const POLICY = 'Second factor required once enrolled';

let server: TestServer;

interface Person {
  id: string;
  email: string;
  /** Signed in with the password only. */
  client: SupabaseClient;
}

interface TwoFactorPerson extends Person {
  /** Signed in with the password, then the TOTP code (the app's sign-in flow). */
  aal2: SupabaseClient;
}

function aalOf(accessToken: string): unknown {
  return (
    JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')) as {
      aal?: unknown;
    }
  ).aal;
}

async function signIn(email: string): Promise<SupabaseClient> {
  const client = clientFor(server);
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return client;
}

/** A user signed in as the app signs them in: an admin (who always has a factor) at aal2. */
async function person(spec: Parameters<typeof createSignedInUser>[1]): Promise<Person> {
  const user = await createSignedInUser(server, spec);
  const client = await signIn(user.email);
  if (user.factor) await passSecondFactor(client, user.factor);
  return { id: user.id, email: user.email, client };
}

/**
 * A user who enrolled and verified a TOTP factor in one session; then a
 * password-only session (aal1) and one that also passed the code (aal2).
 */
async function personWithFactor(
  spec: Parameters<typeof createSignedInUser>[1],
): Promise<TwoFactorPerson> {
  const user = await createSignedInUser(server, spec);
  // Admins come with a verified factor; anyone else enrols one here.
  let factor = user.factor;
  if (!factor) {
    const enrolling = await signIn(user.email);
    const enrolled = await enrolling.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw enrolled.error;
    factor = { id: enrolled.data.id, secret: enrolled.data.totp.secret };
    await passSecondFactor(enrolling, factor);
  }

  // The step-up first: verifying a code signs out the user's aal1 sessions (as GoTrue does),
  // and the data API refuses a token whose session has ended.
  const aal2 = await signIn(user.email);
  await passSecondFactor(aal2, factor);
  const client = await signIn(user.email);
  for (const [session, aal] of [
    [client, 'aal1'],
    [aal2, 'aal2'],
  ] as const) {
    const { data } = await session.auth.getSession();
    expect(aalOf(data.session!.access_token)).toBe(aal);
  }
  return { id: user.id, email: user.email, client, aal2 };
}

// ---- the tables, as the catalog has them ------------------------------------------------

interface TableInfo {
  name: string;
  primaryKey: string[];
  /** Columns the authenticated role may read, insert and update. */
  selectable: string[];
  insertable: string[];
  updatable: string[];
}

/** Every table of public with row-level security, and the authenticated role's column privileges. */
async function productTables(): Promise<TableInfo[]> {
  const { rows } = await server.db.query<{
    name: string;
    primary_key: string[] | null;
    selectable: string[] | null;
    insertable: string[] | null;
    updatable: string[] | null;
  }>(
    `select c.relname as name,
       (select array_agg(a.attname::text order by a.attnum)
        from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
        where i.indrelid = c.oid and i.indisprimary) as primary_key,
       array_agg(a.attname::text order by a.attnum)
         filter (where has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT')) as selectable,
       array_agg(a.attname::text order by a.attnum)
         filter (where a.attgenerated = '' and has_column_privilege('authenticated', c.oid, a.attnum, 'INSERT')) as insertable,
       array_agg(a.attname::text order by a.attnum)
         filter (where a.attgenerated = '' and has_column_privilege('authenticated', c.oid, a.attnum, 'UPDATE')) as updatable
     from pg_class c
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relrowsecurity
     group by c.oid, c.relname
     order by c.relname`,
  );
  return rows.map((row) => ({
    name: row.name,
    primaryKey: row.primary_key ?? [],
    selectable: row.selectable ?? [],
    insertable: row.insertable ?? [],
    updatable: row.updatable ?? [],
  }));
}

/** The table's whole content as one hash (as the superuser), to see that nothing changed. */
async function fingerprint(table: string): Promise<{ rows: number; hash: string }> {
  const { rows } = await server.db.query<{ rows: number; hash: string }>(
    `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as hash
     from public.${quoteIdent(table)} t`,
  );
  return rows[0]!;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

type Row = Record<string, unknown>;
type Outcome = { error: string } | { rows: number };

interface ApiResult {
  data: unknown;
  error: { code?: string; message: string } | null;
}

function outcomeOf(result: ApiResult): Outcome {
  if (result.error) return { error: result.error.code ?? result.error.message };
  return { rows: Array.isArray(result.data) ? result.data.length : result.data === null ? 0 : 1 };
}

/** Refused or empty: an error, or no rows. */
function seesNothing(result: ApiResult): boolean {
  return result.error !== null || (Array.isArray(result.data) && result.data.length === 0);
}

/** What a client reads of a table: every column it may read (or `*`, to be refused). */
function readAll(client: SupabaseClient, table: TableInfo) {
  return client
    .from(table.name)
    .select(table.selectable.length > 0 ? table.selectable.join(',') : '*');
}

function keyOf(table: TableInfo, row: Row): Row {
  return Object.fromEntries(table.primaryKey.map((column) => [column, row[column]]));
}

/** The columns of a row that the authenticated role may write, as read. */
function writable(columns: string[], row: Row): Row {
  return Object.fromEntries(columns.filter((column) => column in row).map((c) => [c, row[c]]));
}

// ---- the world ------------------------------------------------------------------------

let admin: TwoFactorPerson;
let customer: TwoFactorPerson;
let plainAdmin: Person;
let plainCustomer: Person;
let stranger: Person;
let tables: TableInfo[];
const workspaces = { customer: '', plainCustomer: '' };

/** Tables that hold something once the world is made, all of them readable by Cervana admins. */
const SEEDED_FOR_ADMINS = [
  'availability_rules',
  'blackout_dates',
  'demo_bookings',
  'leads',
  'partner_applications',
  'partners',
  'profiles',
  'referral_clicks',
  'scheduler_settings',
  'site_settings',
  'workspace_members',
  'workspaces',
];

beforeAll(async () => {
  server = await startFormsServer({ RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000' });
  [admin, customer] = await Promise.all([
    personWithFactor({ fullName: 'Ada Admin', company: 'Cervana', role: 'admin' }),
    personWithFactor({ fullName: 'Cora Customer', company: 'Cora Clinics' }),
  ]);
  [plainAdmin, plainCustomer, stranger] = await Promise.all([
    person({ fullName: 'Pat Admin', company: 'Cervana', role: 'admin' }),
    person({ fullName: 'Pia Customer', company: 'Pia Plumbing' }),
    person({ fullName: 'Stan Stranger', company: 'Stranger Things Ltd' }),
  ]);
  const partner = await createSignedInUser(server, {
    fullName: 'Paul Partner',
    company: 'Paul Partners',
    role: 'partner',
  });

  const { rows } = await server.db.query<{ created_by: string; id: string }>(
    `select created_by, id from public.workspaces where created_by = any ($1::uuid[])`,
    [[customer.id, plainCustomer.id]],
  );
  workspaces.customer = rows.find((row) => row.created_by === customer.id)!.id;
  workspaces.plainCustomer = rows.find((row) => row.created_by === plainCustomer.id)!.id;

  // Something in every table, made the way visitors make it.
  const anon = clientFor(server);
  const code = await server.db.query<{ referral_code: string }>(
    `select referral_code from public.partners where user_id = $1`,
    [partner.id],
  );
  const referralCode = code.rows[0]!.referral_code;
  const slots = await anon.rpc('get_demo_slots');
  expect(slots.error).toBeNull();
  const results = await Promise.all([
    anon.rpc('submit_sales_inquiry', {
      full_name: 'Lena Lead',
      email: uniqueEmail('lead'),
      company: 'Lead Co',
      team_size: '1-5',
      monthly_call_volume: 'under-500',
      consent: true,
      referral_code: referralCode,
    }),
    anon.rpc('submit_partner_application', {
      full_name: 'Abe Applicant',
      email: uniqueEmail('applicant'),
      company: 'Applicant Co',
      partner_type: 'agency',
      expected_referrals: 3,
    }),
    anon.rpc('book_demo', {
      starts_at: (slots.data as { starts_at: string }[])[0]!.starts_at,
      full_name: 'Bea Booker',
      email: uniqueEmail('booker'),
      company: 'Booker Co',
      team_size: '6-20',
      time_zone: 'America/Chicago',
    }),
    anon.rpc('record_referral_click', { code: referralCode }),
  ]);
  for (const result of results) expect(result.error).toBeNull();
  await server.db.query(
    `insert into public.blackout_dates (day, reason) values ('2031-12-25', 'Holiday')`,
  );

  tables = await productTables();
});
afterAll(() => server?.close());

// ---- Finding 2: the catalog ----------------------------------------------------------------

/** Tables with row-level security (public's, and storage's two) lacking the restrictive policy. */
async function tablesWithoutThePolicy(): Promise<string[]> {
  const { rows } = await server.db.query<{ name: string }>(
    `select c.oid::regclass::text as name
     from pg_class c
     where ((c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relrowsecurity)
            or c.oid in ('storage.objects'::regclass, 'storage.buckets'::regclass))
       and not exists (
         select from pg_policy p
         where p.polrelid = c.oid
           and not p.polpermissive
           and p.polcmd = '*'
           and p.polroles = array['authenticated'::regrole::oid]
           and pg_get_expr(p.polqual, p.polrelid) ~ '^\\(\\s*SELECT\\s+(public\\.)?mfa_satisfied\\(\\)'
           and pg_get_expr(p.polwithcheck, p.polrelid) ~ '^\\(\\s*SELECT\\s+(public\\.)?mfa_satisfied\\(\\)'
       )
     order by 1`,
  );
  return rows.map((row) => row.name);
}

describe('the catalog', () => {
  it('every table of public has row-level security on', async () => {
    const { rows } = await server.db.query<{ name: string }>(
      `select relname as name from pg_class
       where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relrowsecurity`,
    );
    expect(rows.map((row) => row.name)).toEqual([]);
  });

  it('no view of public reads past row-level security (security_invoker on every view)', async () => {
    const { rows } = await server.db.query<{ name: string }>(
      `select relname as name from pg_class
       where relnamespace = 'public'::regnamespace and relkind in ('v', 'm')
         and not coalesce(reloptions @> array['security_invoker=true'], false)
         and not coalesce(reloptions @> array['security_invoker=on'], false)`,
    );
    expect(rows.map((row) => row.name)).toEqual([]);
  });

  it(`every table with row-level security, and storage's, has the restrictive "${POLICY}" policy`, async () => {
    // A new table gets, in its own migration:
    //   create policy "Second factor required once enrolled" on public.<table>
    //     as restrictive for all to authenticated
    //     using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));
    expect(await tablesWithoutThePolicy()).toEqual([]);
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(SEEDED_FOR_ADMINS));
  });

  it('notices a table added without the policy', async () => {
    await server.db.exec(
      `create table public.mfa_guard_probe (id int primary key);
       alter table public.mfa_guard_probe enable row level security;`,
    );
    try {
      expect(await tablesWithoutThePolicy()).toEqual(['mfa_guard_probe']);
    } finally {
      await server.db.exec(`drop table public.mfa_guard_probe`);
    }
  });

  it('mfa_satisfied() is one stable security definer function with an empty search_path', async () => {
    const { rows } = await server.db.query<{
      definer: boolean;
      volatility: string;
      config: string[] | null;
      authenticated: boolean;
      anon: boolean;
    }>(
      `select p.prosecdef as definer, p.provolatile::text as volatility, p.proconfig as config,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon
       from pg_proc p
       where p.oid = 'public.mfa_satisfied()'::regprocedure`,
    );
    expect(rows).toEqual([
      {
        definer: true,
        volatility: 's',
        config: [expect.stringMatching(/^search_path=(""|)$/)],
        authenticated: true,
        anon: true,
      },
    ]);
  });
});

// ---- Finding 2: the data API ------------------------------------------------------------

describe('the data API', () => {
  it('every table holds something to hide', async () => {
    for (const name of SEEDED_FOR_ADMINS) {
      expect((await fingerprint(name)).rows, name).toBeGreaterThan(0);
    }
  });

  for (const who of ['admin', 'customer'] as const) {
    const mfa = () => (who === 'admin' ? admin : customer);
    const twin = () => (who === 'admin' ? plainAdmin : plainCustomer);

    describe(`a ${who} with a verified factor, signed in with the password only (aal1)`, () => {
      it('reads nothing of any table', async () => {
        for (const table of tables) {
          const read = await readAll(mfa().client, table);
          expect(seesNothing(read), `${table.name}: ${JSON.stringify(read)}`).toBe(true);
        }
      });

      it('inserts, changes and removes nothing in any table', async () => {
        for (const table of tables) {
          // The rows the same user may touch once past the second factor.
          const seen = await readAll(mfa().aal2, table);
          const rows = (seen.data ?? []) as unknown as Row[];
          const before = await fingerprint(table.name);

          if (rows[0]) {
            // A copy of a row it could read (all it reads where it may insert nothing).
            const columns = table.insertable.length > 0 ? table.insertable : table.selectable;
            const inserted = await mfa().client.from(table.name).insert(writable(columns, rows[0]));
            expect(outcomeOf(inserted), `insert into ${table.name}`).toEqual({ error: '42501' });
          }

          const updatable = table.updatable.filter((column) => table.selectable.includes(column));
          // Writes are aimed at one row by its key; a table without one gets none.
          for (const row of table.primaryKey.length > 0 ? rows.slice(0, 3) : []) {
            const key = keyOf(table, row);
            if (updatable.length > 0) {
              const updated = await mfa()
                .client.from(table.name)
                .update(writable(updatable.slice(0, 1), row))
                .match(key)
                .select(table.primaryKey.join(','));
              expect(seesNothing(updated), `update ${table.name}: ${JSON.stringify(updated)}`).toBe(
                true,
              );
            }
            const deleted = await mfa()
              .client.from(table.name)
              .delete()
              .match(key)
              .select(table.primaryKey.join(','));
            expect(
              seesNothing(deleted),
              `delete from ${table.name}: ${JSON.stringify(deleted)}`,
            ).toBe(true);
          }
          expect(await fingerprint(table.name), table.name).toEqual(before);
        }
      });

      it('still uses the public forms (security definer functions)', async () => {
        const slots = await mfa().client.rpc('get_demo_slots');
        expect(slots.error).toBeNull();
        expect((slots.data as unknown[]).length).toBeGreaterThan(0);
        const inquiry = await mfa().client.rpc('submit_sales_inquiry', {
          full_name: 'Cora Again',
          email: uniqueEmail('inquiry'),
          company: 'Cora Clinics',
          team_size: '1-5',
          monthly_call_volume: 'under-500',
          consent: true,
        });
        expect(inquiry.error).toBeNull();
        const satisfied = await mfa().client.rpc('mfa_satisfied');
        expect(satisfied).toMatchObject({ error: null, data: false });
      });
    });

    describe(`the same ${who} after the second factor (aal2)`, () => {
      it(`reads what a ${who} without a factor reads`, async () => {
        for (const table of tables) {
          const [withFactor, without] = await Promise.all([
            readAll(mfa().aal2, table),
            readAll(twin().client, table),
          ]);
          expect(outcomeOf(withFactor), table.name).toEqual(outcomeOf(without));
        }
        const satisfied = await mfa().aal2.rpc('mfa_satisfied');
        expect(satisfied).toMatchObject({ error: null, data: true });
      });
    });
  }

  it('admins: at aal2 (and without a factor) they see every seeded table, and change what they may', async () => {
    for (const table of tables.filter((t) => SEEDED_FOR_ADMINS.includes(t.name))) {
      const read = await readAll(admin.aal2, table);
      expect(outcomeOf(read), table.name).toMatchObject({ rows: expect.any(Number) });
      expect((read.data as unknown as Row[]).length, table.name).toBeGreaterThan(0);
    }
    const settings = await admin.aal2
      .from('site_settings')
      .update({ submissions_per_email_per_hour: 4 })
      .eq('id', true)
      .select('submissions_per_email_per_hour');
    expect(settings).toMatchObject({ error: null, data: [{ submissions_per_email_per_hour: 4 }] });
    const lead = await admin.aal2.from('leads').select('id, version').limit(1).single();
    const updated = await admin.aal2.rpc('update_lead', {
      p_lead_id: (lead.data as { id: string }).id,
      p_changes: { status: 'contacted' },
      p_expected_version: (lead.data as { version: number }).version,
    });
    expect(updated).toMatchObject({ error: null, data: { status: 'contacted' } });
    // Writes as an aal2 admin pass the policies: the copy of a rule breaks only its key.
    const rule = await admin.aal2.from('availability_rules').select('*').limit(1).single();
    const copy = await admin.aal2.from('availability_rules').insert(rule.data as Row);
    expect(copy.error?.code).toBe('23505');
  });

  it('customers: at aal2 they see their profile, workspace and membership, and rename the workspace', async () => {
    const profile = await customer.aal2.from('profiles').select('id');
    expect(profile).toMatchObject({ error: null, data: [{ id: customer.id }] });
    const renamed = await customer.aal2
      .from('workspaces')
      .update({ name: 'Cora Clinics HQ' })
      .eq('id', workspaces.customer)
      .select('name');
    expect(renamed).toMatchObject({ error: null, data: [{ name: 'Cora Clinics HQ' }] });
  });

  it('an admin who never enrolled a factor gets no admin data until they do', async () => {
    const service = clientFor(server, { key: server.serviceRoleKey });
    const email = uniqueEmail('unenrolled-admin');
    const created = await service.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      app_metadata: { role: 'admin' },
    });
    expect(created.error).toBeNull();
    const client = await signIn(email);
    const claims = JSON.parse(
      Buffer.from(
        (await client.auth.getSession()).data.session!.access_token.split('.')[1]!,
        'base64url',
      ).toString(),
    ) as { aal: string; app_metadata: { role: string } };
    expect({ aal: claims.aal, role: claims.app_metadata.role }).toEqual({
      aal: 'aal1',
      role: 'admin',
    });

    // Nothing an admin reads: not the leads, not the overview, not the settings.
    expect(await client.from('leads').select('id')).toMatchObject({ error: null, data: [] });
    expect(await client.from('site_settings').select('*')).toMatchObject({ error: null, data: [] });
    const overview = await client.rpc('admin_overview', {
      p_from: new Date(Date.now() - 86_400_000).toISOString(),
      p_to: new Date().toISOString(),
    });
    expect({ status: overview.status, code: overview.error?.code }).toEqual({
      status: 403,
      code: '42501',
    });
    expect(await client.rpc('is_admin')).toMatchObject({ error: null, data: false });
    // Their own profile, as any signed-in user.
    expect(await client.from('profiles').select('id')).toMatchObject({
      error: null,
      data: [{ id: created.data.user!.id }],
    });

    // Enrolling a factor raises this very session to aal2, and admin data follows.
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toBeNull();
    await passSecondFactor(client, { id: enrolled.data!.id, secret: enrolled.data!.totp.secret });
    expect(await client.rpc('is_admin')).toMatchObject({ error: null, data: true });
    const leads = await client.from('leads').select('id');
    expect(leads.error).toBeNull();
    expect(leads.data!.length).toBeGreaterThan(0);
  });

  it('users without a factor are not affected at aal1', async () => {
    const { data } = await plainCustomer.client.auth.getSession();
    expect(aalOf(data.session!.access_token)).toBe('aal1');
    const profile = await plainCustomer.client.from('profiles').select('id');
    expect(profile).toMatchObject({ error: null, data: [{ id: plainCustomer.id }] });
    const workspace = await plainCustomer.client.from('workspaces').select('id');
    expect(workspace).toMatchObject({ error: null, data: [{ id: workspaces.plainCustomer }] });
    const satisfied = await plainCustomer.client.rpc('mfa_satisfied');
    expect(satisfied).toMatchObject({ error: null, data: true });
  });
});

// ---- Finding 2: storage -------------------------------------------------------------------

describe('storage', () => {
  const file = (text: string) => new Blob([text], { type: 'text/plain' });
  let service: SupabaseClient;

  beforeAll(async () => {
    service = clientFor(server, { key: server.serviceRoleKey });
    for (const [bucket, name, type] of [
      ['knowledge', `${workspaces.customer}/handbook.txt`, 'text/plain'],
      ['knowledge', `${workspaces.plainCustomer}/handbook.txt`, 'text/plain'],
      ['call-recordings', `${workspaces.customer}/call.mp3`, 'audio/mpeg'],
      ['partner-assets', 'brochure.pdf', 'application/pdf'],
    ] as const) {
      const { error } = await service.storage
        .from(bucket)
        .upload(name, new Blob(['%PDF- or not'], { type }), { contentType: type });
      expect(error, `${bucket}/${name}`).toBeNull();
    }
  });

  async function objectCount(bucket: string): Promise<number> {
    const { rows } = await server.db.query<{ count: number }>(
      `select count(*)::int as count from storage.objects where bucket_id = $1`,
      [bucket],
    );
    return rows[0]!.count;
  }

  it('a customer with a factor at aal1 lists, reads, signs and changes nothing', async () => {
    const storage = customer.client.storage;
    const folder = workspaces.customer;
    const before = await objectCount('knowledge');

    expect(await storage.listBuckets()).toMatchObject({ error: null, data: [] });
    for (const bucket of ['knowledge', 'call-recordings']) {
      const listed = await storage.from(bucket).list(folder);
      expect(seesNothing(listed), `${bucket}: ${JSON.stringify(listed)}`).toBe(true);
    }
    const downloaded = await storage.from('knowledge').download(`${folder}/handbook.txt`);
    expect(downloaded.data).toBeNull();
    expect(downloaded.error).toMatchObject({ name: 'StorageApiError', statusCode: '404' });
    const recording = await storage.from('call-recordings').download(`${folder}/call.mp3`);
    expect(recording.data).toBeNull();
    const signed = await storage.from('knowledge').createSignedUrl(`${folder}/handbook.txt`, 60);
    expect(signed.data).toBeNull();

    const uploaded = await storage.from('knowledge').upload(`${folder}/new.txt`, file('new'), {
      contentType: 'text/plain',
    });
    expect(uploaded.data).toBeNull();
    expect(uploaded.error).toMatchObject({
      name: 'StorageApiError',
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    const overwritten = await storage
      .from('knowledge')
      .upload(`${folder}/handbook.txt`, file('changed'), {
        contentType: 'text/plain',
        upsert: true,
      });
    expect(overwritten.data).toBeNull();
    const removed = await storage.from('knowledge').remove([`${folder}/handbook.txt`]);
    expect(seesNothing(removed), JSON.stringify(removed)).toBe(true);

    expect(await objectCount('knowledge')).toBe(before);
    const kept = await service.storage.from('knowledge').download(`${folder}/handbook.txt`);
    expect(await kept.data?.text()).toBe('%PDF- or not');
  });

  it('the same customer at aal2 lists, reads and uploads', async () => {
    const storage = customer.aal2.storage;
    const folder = workspaces.customer;
    const buckets = await storage.listBuckets();
    expect(buckets.data?.map((bucket) => bucket.id).sort()).toEqual([
      'call-recordings',
      'knowledge',
      'partner-assets',
    ]);
    const listed = await storage.from('knowledge').list(folder);
    expect(listed.data?.map((object) => object.name)).toEqual(['handbook.txt']);
    const downloaded = await storage.from('knowledge').download(`${folder}/handbook.txt`);
    expect(await downloaded.data?.text()).toBe('%PDF- or not');
    const uploaded = await storage.from('knowledge').upload(`${folder}/new.txt`, file('new'), {
      contentType: 'text/plain',
    });
    expect(uploaded.error).toBeNull();
  });

  it('an admin with a factor keeps partner assets only at aal2 (downloads stay public)', async () => {
    const listed = await admin.client.storage.from('partner-assets').list();
    expect(seesNothing(listed), JSON.stringify(listed)).toBe(true);
    const uploaded = await admin.client.storage
      .from('partner-assets')
      .upload('price-list.pdf', new Blob(['%PDF-'], { type: 'application/pdf' }), {
        contentType: 'application/pdf',
      });
    expect(uploaded.error).toMatchObject({ statusCode: '403' });
    // A public bucket's objects are anyone's to download, signed in or not.
    const publicDownload = await admin.client.storage
      .from('partner-assets')
      .download('brochure.pdf');
    expect(publicDownload.error).toBeNull();

    const listedAal2 = await admin.aal2.storage.from('partner-assets').list();
    expect(listedAal2.data?.map((object) => object.name)).toEqual(['brochure.pdf']);
    const uploadedAal2 = await admin.aal2.storage
      .from('partner-assets')
      .upload('price-list.pdf', new Blob(['%PDF-'], { type: 'application/pdf' }), {
        contentType: 'application/pdf',
      });
    expect(uploadedAal2.error).toBeNull();
  });

  it('a customer without a factor is not affected at aal1', async () => {
    const storage = plainCustomer.client.storage;
    const folder = workspaces.plainCustomer;
    const listed = await storage.from('knowledge').list(folder);
    expect(listed.data?.map((object) => object.name)).toEqual(['handbook.txt']);
    const uploaded = await storage.from('knowledge').upload(`${folder}/new.txt`, file('new'), {
      contentType: 'text/plain',
    });
    expect(uploaded.error).toBeNull();
  });
});

// ---- Finding 6: workspace membership -----------------------------------------------------

describe('workspace membership', () => {
  async function memberships(userId: string): Promise<string[]> {
    const { rows } = await server.db.query<{ workspace_id: string }>(
      `select workspace_id from public.workspace_members where user_id = $1 order by 1`,
      [userId],
    );
    return rows.map((row) => row.workspace_id);
  }

  it('an owner cannot add another user to their workspace, and so never reads their profile', async () => {
    const before = await memberships(stranger.id);
    for (const role of ['member', 'admin', 'owner']) {
      const added = await plainCustomer.client
        .from('workspace_members')
        .insert({ workspace_id: workspaces.plainCustomer, user_id: stranger.id, role });
      expect(added.error?.code, role).toBe('42501');
    }
    expect(await memberships(stranger.id)).toEqual(before);
    const profile = await plainCustomer.client.from('profiles').select('id').eq('id', stranger.id);
    expect(profile).toMatchObject({ error: null, data: [] });
  });

  it('nobody adds themselves to a workspace either, nor does a Cervana admin add anyone', async () => {
    const joined = await stranger.client
      .from('workspace_members')
      .insert({ workspace_id: workspaces.plainCustomer, user_id: stranger.id, role: 'owner' });
    expect(joined.error?.code).toBe('42501');
    const byAdmin = await admin.aal2
      .from('workspace_members')
      .insert({ workspace_id: workspaces.plainCustomer, user_id: stranger.id, role: 'member' });
    expect(byAdmin.error?.code).toBe('42501');
    expect(await memberships(stranger.id)).not.toContain(workspaces.plainCustomer);
  });

  it('the sign-up trigger still makes each new customer the owner of a workspace', async () => {
    const { rows } = await server.db.query<{ role: string }>(
      `select role from public.workspace_members where user_id = $1`,
      [stranger.id],
    );
    expect(rows).toEqual([{ role: 'owner' }]);
  });
});
