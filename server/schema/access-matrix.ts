/**
 * Who may do what to the product tables: one row per operation, one expected
 * outcome per actor, so no actor is ever left out. The rows are plain data
 * (`@name` stands for the id of a user or workspace of the test world), so the
 * same matrix can be driven through SQL today and through /rest/v1 later
 * (select/insert/update/delete/rpc map to supabase-js calls, DENIED to 401/403
 * with code 42501, CHECK to 400 with code 23514, counts to `count: 'exact'`).
 *
 * The world (policies.int.test.ts):
 *   acme     alice (owner), aaron (admin), amir (member)
 *   bluebird bob (owner), bea (owner)
 *   no workspace: guest (anonymous sign-in), parker (partner), sam (Cervana admin)
 */

export const ACTORS = ['anon', 'guest', 'alice', 'aaron', 'amir', 'bob', 'parker', 'sam'] as const;
export type ActorName = (typeof ACTORS)[number];

export const USERS = ['guest', 'alice', 'aaron', 'amir', 'bob', 'bea', 'parker', 'sam'] as const;
export type UserName = (typeof USERS)[number];
export type WorkspaceName = 'acme' | 'bluebird';

export type ProductTable = 'profiles' | 'workspaces' | 'workspace_members';
/** `@name` refers to a user's or workspace's id; anything else is a literal. */
export type Values = Record<string, string | null>;

export type Operation =
  | { kind: 'select'; table: ProductTable; match?: Values }
  | { kind: 'insert'; table: ProductTable; values: Values }
  | { kind: 'update'; table: ProductTable; values: Values; match: Values }
  | { kind: 'delete'; table: ProductTable; match: Values }
  | { kind: 'rpc'; fn: string; args?: Values };

export type Expected =
  | { denied: true } // 42501: no privilege, or a row the policy refuses to write
  | { violates: true } // 23514: a check, e.g. the last owner of a workspace
  | { rows: string[] } // select: exactly these rows (profiles: user; workspaces: name; members: workspace/user)
  | { affects: number } // insert/update/delete: rows written
  | { returns: unknown }; // rpc: the value

export interface AccessRow {
  title: string;
  operation: Operation;
  expect: Record<ActorName, Expected>;
}

const DENIED: Expected = { denied: true };
const VIOLATES: Expected = { violates: true };
const rows = (...names: string[]): Expected => ({ rows: names });
const affects = (count: number): Expected => ({ affects: count });
const returns = (value: unknown): Expected => ({ returns: value });
const NONE = affects(0);

/** Every actor but anon, who has no privileges on any product table or helper. */
const signedIn = (
  outcomes: Omit<Record<ActorName, Expected>, 'anon'>,
): Record<ActorName, Expected> => ({ anon: DENIED, ...outcomes });
/** The same outcome for everyone. */
const everyone = (outcome: Expected): Record<ActorName, Expected> =>
  Object.fromEntries(ACTORS.map((actor) => [actor, outcome])) as Record<ActorName, Expected>;

const ACME_MEMBERS = ['acme/aaron', 'acme/alice', 'acme/amir'];
const BLUEBIRD_MEMBERS = ['bluebird/bea', 'bluebird/bob'];
const ACME_TEAM = ['aaron', 'alice', 'amir'];

export const PROFILE_ROWS: AccessRow[] = [
  {
    title: 'read profiles: their own, their teammates’, and all for Cervana admins',
    operation: { kind: 'select', table: 'profiles' },
    expect: signedIn({
      guest: rows('guest'),
      alice: rows(...ACME_TEAM),
      aaron: rows(...ACME_TEAM),
      amir: rows(...ACME_TEAM),
      bob: rows('bea', 'bob'),
      parker: rows('parker'),
      sam: rows(...USERS),
    }),
  },
  {
    title: 'read another company’s profile by id',
    operation: { kind: 'select', table: 'profiles', match: { id: '@bob' } },
    expect: signedIn({
      guest: rows(),
      alice: rows(),
      aaron: rows(),
      amir: rows(),
      bob: rows('bob'),
      parker: rows(),
      sam: rows('bob'),
    }),
  },
  {
    title: 'change their own profile (it follows user_metadata, changed through /auth/v1/user)',
    operation: {
      kind: 'update',
      table: 'profiles',
      values: { full_name: 'Renamed' },
      match: { id: '@alice' },
    },
    expect: everyone(DENIED),
  },
  {
    title: 'create a profile',
    operation: { kind: 'insert', table: 'profiles', values: { id: '@bea', full_name: 'Fake' } },
    expect: everyone(DENIED),
  },
  {
    title: 'delete a profile',
    operation: { kind: 'delete', table: 'profiles', match: { id: '@alice' } },
    expect: everyone(DENIED),
  },
];

export const WORKSPACE_ROWS: AccessRow[] = [
  {
    title: 'read workspaces: their own, and all for Cervana admins',
    operation: { kind: 'select', table: 'workspaces' },
    expect: signedIn({
      guest: rows(),
      alice: rows('acme'),
      aaron: rows('acme'),
      amir: rows('acme'),
      bob: rows('bluebird'),
      parker: rows(),
      sam: rows('acme', 'bluebird'),
    }),
  },
  {
    title: 'rename acme: its owners and admins only',
    operation: {
      kind: 'update',
      table: 'workspaces',
      values: { name: 'Acme Health Inc' },
      match: { id: '@acme' },
    },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: affects(1),
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'rename acme to a blank name',
    operation: {
      kind: 'update',
      table: 'workspaces',
      values: { name: '' },
      match: { id: '@acme' },
    },
    expect: signedIn({
      guest: NONE,
      alice: VIOLATES,
      aaron: VIOLATES,
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'change who created acme (not a writable column)',
    operation: {
      kind: 'update',
      table: 'workspaces',
      values: { created_by: '@bob' },
      match: { id: '@acme' },
    },
    expect: everyone(DENIED),
  },
  {
    title: 'create a workspace',
    operation: { kind: 'insert', table: 'workspaces', values: { name: 'Side project' } },
    expect: everyone(DENIED),
  },
  {
    title: 'delete acme',
    operation: { kind: 'delete', table: 'workspaces', match: { id: '@acme' } },
    expect: everyone(DENIED),
  },
];

const member = (workspace: WorkspaceName, user: UserName) => ({
  workspace_id: `@${workspace}`,
  user_id: `@${user}`,
});

export const MEMBER_ROWS: AccessRow[] = [
  {
    title: 'read memberships: their workspaces’, and all for Cervana admins',
    operation: { kind: 'select', table: 'workspace_members' },
    expect: signedIn({
      guest: rows(),
      alice: rows(...ACME_MEMBERS),
      aaron: rows(...ACME_MEMBERS),
      amir: rows(...ACME_MEMBERS),
      bob: rows(...BLUEBIRD_MEMBERS),
      parker: rows(),
      sam: rows(...ACME_MEMBERS, ...BLUEBIRD_MEMBERS),
    }),
  },
  // Nobody adds members through the API, a workspace's owner included: until
  // invitations exist, the server does (20261124000200_workspace_members_insert).
  {
    title: 'add parker to acme as a member: nobody (not even its owner)',
    operation: {
      kind: 'insert',
      table: 'workspace_members',
      values: { ...member('acme', 'parker'), role: 'member' },
    },
    expect: everyone(DENIED),
  },
  {
    title: 'add parker to acme as an owner: nobody',
    operation: {
      kind: 'insert',
      table: 'workspace_members',
      values: { ...member('acme', 'parker'), role: 'owner' },
    },
    expect: everyone(DENIED),
  },
  {
    title: 'add bob, of another company, to acme (bob: joining on his own): nobody',
    operation: {
      kind: 'insert',
      table: 'workspace_members',
      values: { ...member('acme', 'bob'), role: 'member' },
    },
    expect: everyone(DENIED),
  },
  {
    title: 'make amir an admin of acme',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { role: 'admin' },
      match: member('acme', 'amir'),
    },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: affects(1),
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'make amir an owner of acme (amir: promoting himself)',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { role: 'owner' },
      match: member('acme', 'amir'),
    },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: DENIED,
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'make aaron an owner of acme (aaron: promoting himself)',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { role: 'owner' },
      match: member('acme', 'aaron'),
    },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: DENIED,
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'demote alice, the last owner of acme',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { role: 'admin' },
      match: member('acme', 'alice'),
    },
    expect: signedIn({
      guest: NONE,
      alice: VIOLATES,
      aaron: NONE,
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'remove alice, the last owner of acme (alice: leaving)',
    operation: { kind: 'delete', table: 'workspace_members', match: member('acme', 'alice') },
    expect: signedIn({
      guest: NONE,
      alice: VIOLATES,
      aaron: NONE,
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'demote bob, one of two owners of bluebird (bob: himself)',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { role: 'member' },
      match: member('bluebird', 'bob'),
    },
    expect: signedIn({
      guest: NONE,
      alice: NONE,
      aaron: NONE,
      amir: NONE,
      bob: affects(1),
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'remove bea, one of two owners of bluebird',
    operation: { kind: 'delete', table: 'workspace_members', match: member('bluebird', 'bea') },
    expect: signedIn({
      guest: NONE,
      alice: NONE,
      aaron: NONE,
      amir: NONE,
      bob: affects(1),
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'remove amir from acme (amir: leaving)',
    operation: { kind: 'delete', table: 'workspace_members', match: member('acme', 'amir') },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: affects(1),
      amir: affects(1),
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'remove aaron, an admin of acme (aaron: leaving)',
    operation: { kind: 'delete', table: 'workspace_members', match: member('acme', 'aaron') },
    expect: signedIn({
      guest: NONE,
      alice: affects(1),
      aaron: affects(1),
      amir: NONE,
      bob: NONE,
      parker: NONE,
      sam: NONE,
    }),
  },
  {
    title: 'move amir’s membership to bluebird (not a writable column)',
    operation: {
      kind: 'update',
      table: 'workspace_members',
      values: { workspace_id: '@bluebird' },
      match: member('acme', 'amir'),
    },
    expect: everyone(DENIED),
  },
];

export const HELPER_ROWS: AccessRow[] = [
  {
    title: 'is_admin()',
    operation: { kind: 'rpc', fn: 'is_admin' },
    expect: signedIn({
      guest: returns(false),
      alice: returns(false),
      aaron: returns(false),
      amir: returns(false),
      bob: returns(false),
      parker: returns(false),
      sam: returns(true),
    }),
  },
  {
    title: 'is_partner()',
    operation: { kind: 'rpc', fn: 'is_partner' },
    expect: signedIn({
      guest: returns(false),
      alice: returns(false),
      aaron: returns(false),
      amir: returns(false),
      bob: returns(false),
      parker: returns(true),
      sam: returns(false),
    }),
  },
  {
    title: 'workspace_role(acme)',
    operation: { kind: 'rpc', fn: 'workspace_role', args: { workspace_id: '@acme' } },
    expect: signedIn({
      guest: returns(null),
      alice: returns('owner'),
      aaron: returns('admin'),
      amir: returns('member'),
      bob: returns(null),
      parker: returns(null),
      sam: returns(null),
    }),
  },
  {
    title: 'is_workspace_member(bluebird)',
    operation: { kind: 'rpc', fn: 'is_workspace_member', args: { workspace_id: '@bluebird' } },
    expect: signedIn({
      guest: returns(false),
      alice: returns(false),
      aaron: returns(false),
      amir: returns(false),
      bob: returns(true),
      parker: returns(false),
      sam: returns(false),
    }),
  },
  {
    title: 'shares_workspace_with(alice)',
    operation: { kind: 'rpc', fn: 'shares_workspace_with', args: { user_id: '@alice' } },
    expect: signedIn({
      guest: returns(false),
      alice: returns(true),
      aaron: returns(true),
      amir: returns(true),
      bob: returns(false),
      parker: returns(false),
      sam: returns(false),
    }),
  },
];

export const ACCESS_MATRIX: { table: string; rows: AccessRow[] }[] = [
  { table: 'profiles', rows: PROFILE_ROWS },
  { table: 'workspaces', rows: WORKSPACE_ROWS },
  { table: 'workspace_members', rows: MEMBER_ROWS },
  { table: 'helper functions', rows: HELPER_ROWS },
];
