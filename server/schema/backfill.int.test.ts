import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { migrationSources } from '../db/migration-sources';
import { openPGlite } from '../db/pglite';
import { cloneTestDatabase, testDatabaseKind, type TestDatabase } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';

// Users who signed up before the profiles migration existed get what new users
// get when it runs: a profile each, a workspace for each customer.

const PROFILES_MIGRATION = '20261121000200';
const quiet = { info: () => undefined, warn: () => undefined };

let database: TestDatabase;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cervana-backfill-'));
  if (testDatabaseKind() === 'postgres') {
    database = await cloneTestDatabase({ empty: true });
  } else {
    const db = await openPGlite(path.join(folder, 'pgdata'));
    database = { db, kind: 'pglite', drop: () => db.close() };
  }
  // The product migrations as they were before profiles.
  const earlier = path.join(folder, 'earlier');
  const supabaseMigrations = path.join(ROOT_DIR, 'supabase', 'migrations');
  await mkdir(earlier);
  for (const file of await readdir(supabaseMigrations)) {
    if (file < PROFILES_MIGRATION) {
      await copyFile(path.join(supabaseMigrations, file), path.join(earlier, file));
    }
  }
  const [platform] = migrationSources(ROOT_DIR, path.join(ROOT_DIR, 'supabase'));
  await migrate(database.db, [platform!, { scope: 'product', directory: earlier }], quiet);
});
afterAll(async () => {
  await database?.drop();
  await rm(folder, { recursive: true, force: true });
});

it('gives existing users profiles, and existing customers a workspace', async () => {
  await database.db.exec(`
    insert into auth.users (id, raw_user_meta_data, raw_app_meta_data, is_anonymous, deleted_at, created_at) values
      ('00000000-0000-4000-8000-000000000001', '{"full_name":"Cora Customer","company":"Corvid"}', '{"provider":"email"}', false, null, now() - interval '3 days'),
      ('00000000-0000-4000-8000-000000000002', '{}', '{}', true, null, now() - interval '2 days'),
      ('00000000-0000-4000-8000-000000000003', '{"full_name":"Pam Partner"}', '{"role":"partner"}', false, null, now()),
      ('00000000-0000-4000-8000-000000000004', '{"full_name":"Stan Staff"}', '{"role":"admin"}', false, null, now()),
      ('00000000-0000-4000-8000-000000000005', '{}', '{}', false, now(), now()),
      ('00000000-0000-4000-8000-000000000006', '{"full_name":"Noel Nocompany"}', '{}', false, null, now());
  `);
  const { applied } = await migrate(
    database.db,
    migrationSources(ROOT_DIR, path.join(ROOT_DIR, 'supabase')),
    quiet,
  );
  expect(applied.map((migration) => migration.version)).toContain(PROFILES_MIGRATION);

  const profiles = await database.db.query<{ id: string; full_name: string | null }>(
    `select id, full_name from public.profiles order by id`,
  );
  expect(profiles.rows.map((row) => row.full_name)).toEqual([
    'Cora Customer',
    null,
    'Pam Partner',
    'Stan Staff',
    null,
    'Noel Nocompany',
  ]);
  const owners = await database.db.query<{ user_id: string; name: string; role: string }>(
    `select m.user_id, w.name, m.role from public.workspace_members m
     join public.workspaces w on w.id = m.workspace_id order by m.user_id`,
  );
  expect(owners.rows).toEqual([
    { user_id: '00000000-0000-4000-8000-000000000001', name: 'Corvid', role: 'owner' },
    {
      user_id: '00000000-0000-4000-8000-000000000006',
      name: "Noel Nocompany's workspace",
      role: 'owner',
    },
  ]);
});
