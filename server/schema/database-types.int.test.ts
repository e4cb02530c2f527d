import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTestDatabase, type TestDatabase } from '../testing/harness';
import { ROOT_DIR } from '../testing/root-dir';
import { generateDatabaseTypes } from './generate-database-types';
import { generatePartnerTiers } from './generate-partner-tiers';

let database: TestDatabase;
beforeAll(async () => {
  database = await cloneTestDatabase();
});
afterAll(() => database?.drop());

/** Every line trimmed, so assertions do not depend on indentation. */
const lines = (source: string) => source.split('\n').map((line) => line.trim());

describe('npm run gen:types', () => {
  it('has written src/lib/database.types.ts for the current migrations', async () => {
    const committed = await readFile(
      path.join(ROOT_DIR, 'src', 'lib', 'database.types.ts'),
      'utf8',
    );
    const generated = await generateDatabaseTypes(database.db);
    // When this fails after a schema change: run `npm run gen:types`.
    expect(committed).toBe(generated);
  });

  it('has written src/config/partner-tiers.ts from the partner_tiers the migrations hold', async () => {
    const committed = await readFile(
      path.join(ROOT_DIR, 'src', 'config', 'partner-tiers.ts'),
      'utf8',
    );
    // When this fails after changing the tiers in a migration: run `npm run gen:types`.
    expect(committed).toBe(await generatePartnerTiers(database.db));
    expect(committed).toMatch(/id: 'silver',\n\s+name: 'Silver',\n\s+rate: 0\.2,/);
  });

  it('describes the product tables as supabase-js expects them', async () => {
    const source = lines(await generateDatabaseTypes(database.db));
    const profiles = source.slice(source.indexOf('profiles: {'));
    expect(profiles.slice(0, 9)).toEqual([
      'profiles: {',
      'Row: {',
      'company: string | null',
      'created_at: string',
      'full_name: string | null',
      'id: string',
      'referred_by: string | null',
      'updated_at: string',
      '}',
    ]);
    expect(profiles.slice(9, 17)).toEqual([
      'Insert: {',
      'company?: string | null',
      'created_at?: string',
      'full_name?: string | null',
      'id: string',
      'referred_by?: string | null',
      'updated_at?: string',
      '}',
    ]);
    // The public forms' functions: required arguments, then those with defaults.
    const bookDemo = source.slice(source.indexOf('book_demo: {'));
    expect(bookDemo.slice(0, 13)).toEqual([
      'book_demo: {',
      'Args: {',
      'company: string',
      'email: string',
      'fax?: string',
      'full_name: string',
      'notes?: string',
      'referral_code?: string',
      'starts_at: string',
      'team_size: string',
      'time_zone: string',
      '}',
      'Returns: Json',
    ]);
    expect(source.join('\n')).toContain(
      [
        '{',
        'foreignKeyName: "workspace_members_workspace_id_fkey"',
        'columns: ["workspace_id"]',
        'isOneToOne: false',
        'referencedRelation: "workspaces"',
        'referencedColumns: ["id"]',
        '},',
      ].join('\n'),
    );
    expect(source).toContain('workspace_role: { Args: { workspace_id: string }; Returns: string }');
    expect(source).toContain('is_admin: { Args: never; Returns: boolean }');
  });
});

describe('the type generator', () => {
  let source: string;
  beforeAll(async () => {
    await database.db.exec(`
      create type public.call_status as enum ('answered', 'handed_off', 'missed');
      create type public.price as (amount numeric, currency text);
      create domain public.email_address as text check (value like '%@%');
      create table public.tracked_calls (
        id bigint generated always as identity primary key,
        workspace_id uuid not null references public.workspaces (id),
        status public.call_status not null default 'answered',
        statuses public.call_status[],
        tags text[] not null default '{}',
        caller public.email_address,
        price public.price,
        duration_seconds integer generated always as (60) stored,
        payload jsonb,
        recorded_on date,
        happened_at timestamp
      );
      create table public.call_notes (
        call_id bigint primary key references public.tracked_calls (id),
        body text not null
      );
      create view public.answered_calls as
        select id, workspace_id, status from public.tracked_calls where status = 'answered';
      create materialized view public.call_counts as
        select workspace_id, count(*) as total from public.tracked_calls group by 1;
      create function public.calls_in(workspace_id uuid, since timestamptz default null)
        returns setof public.tracked_calls language sql stable
        as $$ select * from public.tracked_calls c where c.workspace_id = calls_in.workspace_id $$;
      create function public.call_summary(status public.call_status)
        returns table (total bigint, latest timestamp) language sql
        as $$ select count(*), max(happened_at) from public.tracked_calls c where c.status = call_summary.status $$;
      create function public.is_long(public.tracked_calls) returns boolean language sql
        as $$ select $1.duration_seconds > 60 $$;
      create function public.echo(jsonb) returns jsonb language sql as $$ select $1 $$;
      create function public.not_callable(integer) returns integer language sql as $$ select $1 $$;
      create function public.nothing() returns void language sql as $$ $$;
    `);
    source = await generateDatabaseTypes(database.db);
  });

  it('maps enums, arrays, domains, composite types, identity and generated columns', () => {
    const all = lines(source);
    const calls = all.slice(all.indexOf('tracked_calls: {'));
    const row = calls.slice(calls.indexOf('Row: {'), calls.indexOf('Insert: {'));
    expect(row).toEqual(
      expect.arrayContaining([
        'caller: string | null',
        'duration_seconds: number | null',
        'happened_at: string | null',
        'id: number',
        'is_long: boolean | null',
        'payload: Json | null',
        'price: Database["public"]["CompositeTypes"]["price"] | null',
        'status: Database["public"]["Enums"]["call_status"]',
        'statuses: Database["public"]["Enums"]["call_status"][] | null',
        'tags: string[]',
      ]),
    );
    const insert = calls.slice(calls.indexOf('Insert: {'), calls.indexOf('Update: {'));
    expect(insert).toEqual(
      expect.arrayContaining([
        'id?: never',
        'duration_seconds?: number | null',
        'status?: Database["public"]["Enums"]["call_status"]',
        'tags?: string[]',
        'workspace_id: string',
      ]),
    );
    expect(all).toContain('call_status: "answered" | "handed_off" | "missed"');
    expect(all).toContain('call_status: ["answered", "handed_off", "missed"],');
    expect(all.join('\n')).toContain('price: {\namount: number | null\ncurrency: string | null\n}');
    const notes = all.slice(all.indexOf('call_notes: {'));
    expect(
      notes.slice(notes.indexOf('Relationships: ['), notes.indexOf('Relationships: [') + 8),
    ).toEqual([
      'Relationships: [',
      '{',
      'foreignKeyName: "call_notes_call_id_fkey"',
      'columns: ["call_id"]',
      'isOneToOne: true',
      'referencedRelation: "tracked_calls"',
      'referencedColumns: ["id"]',
      '},',
    ]);
  });

  it('lists views (writable ones with Insert and Update) and callable functions', () => {
    const all = lines(source);
    const views = all.slice(all.indexOf('Views: {'), all.indexOf('Functions: {'));
    const answered = views.slice(
      views.indexOf('answered_calls: {'),
      views.indexOf('call_counts: {'),
    );
    expect(answered).toContain('Insert: {');
    expect(answered).toContain('status?: Database["public"]["Enums"]["call_status"] | null');
    const counts = views.slice(views.indexOf('call_counts: {'));
    expect(counts).not.toContain('Insert: {');
    expect(counts).toContain('total: number | null');

    const functions = all.slice(all.indexOf('Functions: {'), all.indexOf('Enums: {')).join('\n');
    expect(functions).toContain('echo: { Args: { "": Json }; Returns: Json }');
    expect(functions).toContain('nothing: { Args: never; Returns: undefined }');
    expect(functions).not.toContain('not_callable');
    expect(functions).toContain('Args: { status: Database["public"]["Enums"]["call_status"] }');
    expect(functions).toContain('Returns: {\nlatest: string\ntotal: number\n}[]');
    expect(functions).toContain('Args: { since?: string; workspace_id: string }');
    expect(functions).toContain(
      'SetofOptions: {\nfrom: "*"\nto: "tracked_calls"\nisOneToOne: false\nisSetofReturn: true\n}',
    );
    expect(functions).toContain('the function public.is_long with parameter');
  });

  it('compiles, and supabase-js types queries with it', async () => {
    const folder = path.join(
      ROOT_DIR,
      'node_modules',
      '.cache',
      'cervana-tests',
      `types-${randomBytes(4).toString('hex')}`,
    );
    await mkdir(folder, { recursive: true });
    try {
      await writeFile(path.join(folder, 'database.types.ts'), source);
      await writeFile(
        path.join(folder, 'usage.ts'),
        `import { createClient } from '@supabase/supabase-js';
import { Constants, type Database, type Enums, type Tables, type TablesInsert, type TablesUpdate } from './database.types';

const supabase = createClient<Database>('http://localhost:3000', 'anon-key');

export async function check(): Promise<void> {
  const { data: profile } = await supabase.from('profiles').select('id, full_name').eq('id', 'x').single();
  const name: string | null | undefined = profile?.full_name;
  const { data: members } = await supabase.from('workspace_members').select('role, profiles(full_name)');
  const memberName: string | null | undefined = members?.[0]?.profiles?.full_name;
  const { data: role } = await supabase.rpc('workspace_role', { workspace_id: 'x' });
  const roleText: string | null = role;
  const status: Enums<'call_status'> = Constants.public.Enums.call_status[0];
  const row: Tables<'workspaces'> = { id: '', name: '', created_by: null, created_at: '', updated_at: '', time_zone: 'UTC' };
  const rename: TablesUpdate<'workspaces'> = { name: 'New name' };
  const add: TablesInsert<'workspace_members'> = { workspace_id: '', user_id: '' };
  // @ts-expect-error workspace_id and user_id are required
  const incomplete: TablesInsert<'workspace_members'> = { role: 'member' };
  // @ts-expect-error not a call status
  const wrong: Enums<'call_status'> = 'voicemail';
  // @ts-expect-error no such table
  supabase.from('no_such_table');
  console.log(name, memberName, roleText, status, row, rename, add, incomplete, wrong);
}
`,
      );
      const program = ts.createProgram([path.join(folder, 'usage.ts')], {
        strict: true,
        noEmit: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
        skipLibCheck: true,
      });
      const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const where =
          diagnostic.file && diagnostic.start !== undefined
            ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
            : '';
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      });
      expect(problems).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
