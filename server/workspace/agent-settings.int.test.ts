import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, ownerWithSecret, type Owner } from '../calls/ingestion-testing';
import { expectRefusal, signedInClient, snapshot, type SignedIn } from '../forms/forms-testing';
import { clientFor } from '../testing/clients';
import { startTestServer, type TestServer } from '../testing/harness';

/**
 * Setting up a workspace (issue 16), in SQL through the data API: the agent's
 * settings (every field validated and named when refused, nothing stored
 * then; saved as versions with who saved them; a stale save refused; an
 * earlier version restored), the workspace's name and time zone, and phone
 * numbers (E.164, unique across workspaces), for an owner, a workspace admin,
 * a member, a stranger and anonymous callers.
 */

let server: TestServer;
let owner: Owner;
let admin: SignedIn;
let member: SignedIn;
let stranger: Owner;
let agentId: string;
let strangerAgentId: string;

interface AgentSettings {
  name: string;
  greeting: string;
  voice: string;
  languages: string[];
  business_hours: Record<string, { open: string; close: string } | null>;
  after_hours: string;
  after_hours_forward_to: string | null;
  escalation_triggers: string[];
  escalation_email: string | null;
  escalation_phone: string | null;
}
type SavedAgent = AgentSettings & { version: number; changed: boolean };

const WEEKDAY = { open: '08:30', close: '18:00' };
function settings(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Ava',
    greeting: 'Thanks for calling Northwind. I am Ava, how can I help?',
    voice: 'maya',
    languages: ['en-US', 'es-MX'],
    business_hours: {
      mon: WEEKDAY,
      tue: WEEKDAY,
      wed: WEEKDAY,
      thu: WEEKDAY,
      fri: { open: '08:30', close: '16:00' },
      sat: null,
      sun: null,
    },
    after_hours: 'forward',
    after_hours_forward_to: '+1 (415) 555-0142',
    escalation_triggers: ['caller_asks', 'cancellation'],
    escalation_email: 'CSM-Team@Northwind.example',
    escalation_phone: null,
    ...overrides,
  };
}

async function currentVersion(id = agentId): Promise<number> {
  const { rows } = await server.db.query<{ version: number }>(
    'select version from public.agents where id = $1',
    [id],
  );
  return rows[0]!.version;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await ownerWithSecret(server, 'Olive Owner');
  admin = await addMember(server, owner.workspaceId, 'Adam Admin', 'admin');
  member = await addMember(server, owner.workspaceId, 'Mina Member', 'member');
  stranger = await ownerWithSecret(server, 'Stan Stranger');
  const agents = await owner.client
    .from('agents')
    .select('id')
    .eq('workspace_id', owner.workspaceId);
  agentId = (agents.data as { id: string }[])[0]!.id;
  const theirs = await stranger.client.from('agents').select('id');
  strangerAgentId = (theirs.data as { id: string }[])[0]!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('agent settings', () => {
  it('start with sound defaults and a first version recorded as nobody’s change', async () => {
    const agent = await member.client
      .from('agents')
      .select(
        'name, greeting, voice, languages, business_hours, after_hours, escalation_triggers, escalation_email, version',
      )
      .eq('id', agentId)
      .single();
    expect(agent.data).toMatchObject({
      name: 'Cervana assistant',
      voice: 'harper',
      languages: ['en-US'],
      after_hours: 'take_message',
      // Hand-offs go to whoever created the workspace until they say otherwise.
      escalation_triggers: ['caller_asks', 'unresolved'],
      escalation_email: owner.email.toLowerCase(),
      version: 1,
    });
    expect((agent.data as { business_hours: Record<string, unknown> }).business_hours).toEqual({
      mon: { open: '09:00', close: '17:00' },
      tue: { open: '09:00', close: '17:00' },
      wed: { open: '09:00', close: '17:00' },
      thu: { open: '09:00', close: '17:00' },
      fri: { open: '09:00', close: '17:00' },
      sat: null,
      sun: null,
    });
    const versions = await member.client
      .from('agent_versions')
      .select('version, changed_by')
      .eq('agent_id', agentId);
    expect(versions.data).toEqual([{ version: 1, changed_by: null }]);
  });

  it('are saved whole by an owner, cleaned, as the next version with who saved it', async () => {
    const saved = await owner.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings(),
      p_expected_version: 1,
    });
    expect(saved.error).toBeNull();
    expect(saved.data as SavedAgent).toMatchObject({
      name: 'Ava',
      voice: 'maya',
      languages: ['en-US', 'es-MX'],
      after_hours: 'forward',
      after_hours_forward_to: '+14155550142',
      escalation_triggers: ['caller_asks', 'cancellation'],
      escalation_email: 'csm-team@northwind.example',
      version: 2,
      changed: true,
    });
    const versions = await member.client
      .from('agent_versions')
      .select('version, changed_by, settings')
      .eq('agent_id', agentId)
      .order('version');
    expect(versions.data).toHaveLength(2);
    const second = (versions.data as { changed_by: string; settings: AgentSettings }[])[1]!;
    expect(second.changed_by).toBe(owner.id);
    expect(second.settings.greeting).toBe(
      'Thanks for calling Northwind. I am Ava, how can I help?',
    );
  });

  it('saved unchanged make no new version', async () => {
    const again = await owner.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings(),
      p_expected_version: 2,
    });
    expect(again.data as SavedAgent).toMatchObject({ version: 2, changed: false });
    expect(await currentVersion()).toBe(2);
  });

  it('are refused when saved from an older version, with a sentence (409)', async () => {
    const stale = await admin.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings({ name: 'Overwriter' }),
      p_expected_version: 1,
    });
    expectRefusal(stale, 409, 'version');
    expect(stale.error!.message).toMatch(/someone else changed the agent/i);
    expect(await currentVersion()).toBe(2);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['name', { name: '   ' }],
    ['name', { name: 'x'.repeat(81) }],
    ['name', { name: 42 }],
    ['greeting', { greeting: 'Hi' }],
    ['greeting', { greeting: 'y'.repeat(501) }],
    ['greeting', { greeting: 'Hello there\u0007 friend' }],
    ['voice', { voice: 'robot' }],
    ['voice', { voice: null }],
    ['languages', { languages: [] }],
    ['languages', { languages: ['en-US', 'xx-XX'] }],
    ['languages', { languages: 'en-US' }],
    ['languages', { languages: ['en-US', 'en-GB', 'es-ES', 'es-MX', 'fr-FR', 'de-DE'] }],
    ['business_hours', { business_hours: null }],
    ['business_hours', { business_hours: { mon: WEEKDAY, funday: WEEKDAY } }],
    ['business_hours', { business_hours: { mon: { open: '18:00', close: '09:00' } } }],
    ['business_hours', { business_hours: { tue: { open: '9am', close: '5pm' } } }],
    ['business_hours', { business_hours: { wed: { open: '25:00', close: '26:00' } } }],
    ['business_hours', { business_hours: { thu: [WEEKDAY] } }],
    ['after_hours', { after_hours: 'panic' }],
    ['after_hours_forward_to', { after_hours: 'forward', after_hours_forward_to: null }],
    ['after_hours_forward_to', { after_hours_forward_to: '555-0100' }],
    ['escalation_triggers', { escalation_triggers: ['whenever'] }],
    ['escalation_email', { escalation_email: 'not an email' }],
    ['escalation_email', { escalation_email: null, escalation_phone: null }],
    ['escalation_phone', { escalation_phone: '+0123' }],
    ['surprise', { surprise: true }],
  ];
  it.each(invalid)('refuse a bad %s with 400, naming it, and store nothing', async (field, bad) => {
    const before = await snapshot(server, ['public.agent_versions']);
    const result = await owner.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings(bad),
      p_expected_version: 2,
    });
    expectRefusal(result, 400, field);
    expect(await snapshot(server, ['public.agent_versions'])).toEqual(before);
    expect(await currentVersion()).toBe(2);
  });

  it('refuse settings that are not one object', async () => {
    const result = await owner.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: ['name', 'Ava'],
      p_expected_version: 2,
    });
    expectRefusal(result, 400, 'settings');
  });

  it('keep a closed day and no hand-off rules without a contact', async () => {
    const saved = await admin.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings({
        after_hours: 'take_message',
        after_hours_forward_to: '+14155550142',
        escalation_triggers: [],
        escalation_email: '',
        business_hours: { mon: { open: '00:00', close: '24:00' } },
      }),
      p_expected_version: 2,
    });
    expect(saved.error).toBeNull();
    expect(saved.data as SavedAgent).toMatchObject({
      version: 3,
      after_hours: 'take_message',
      // Kept only where it is used.
      after_hours_forward_to: null,
      escalation_triggers: [],
      escalation_email: null,
      business_hours: {
        mon: { open: '00:00', close: '24:00' },
        tue: null,
        wed: null,
        thu: null,
        fri: null,
        sat: null,
        sun: null,
      },
    });
  });

  it('are restored from an earlier version as a new version', async () => {
    const restored = await owner.client.rpc('restore_agent_version', {
      p_agent_id: agentId,
      p_version: 2,
      p_expected_version: 3,
    });
    expect(restored.error).toBeNull();
    expect(restored.data as SavedAgent).toMatchObject({
      name: 'Ava',
      after_hours: 'forward',
      version: 4,
    });
    const latest = await owner.client
      .from('agent_versions')
      .select('version, restored_from, changed_by')
      .eq('agent_id', agentId)
      .order('version', { ascending: false })
      .limit(1)
      .single();
    expect(latest.data).toEqual({ version: 4, restored_from: 2, changed_by: owner.id });

    const missing = await owner.client.rpc('restore_agent_version', {
      p_agent_id: agentId,
      p_version: 99,
      p_expected_version: 4,
    });
    expectRefusal(missing, 404, 'version');
  });

  it('are never changed by a member, a stranger or anonymous callers', async () => {
    const before = await snapshot(server, ['public.agent_versions']);
    const byMember = await member.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings({ name: 'Mutiny' }),
      p_expected_version: 4,
    });
    expect(byMember.status).toBe(403);
    expect(byMember.error!.message).toMatch(/only the workspace's owners and admins/i);
    const restoreByMember = await member.client.rpc('restore_agent_version', {
      p_agent_id: agentId,
      p_version: 1,
      p_expected_version: 4,
    });
    expect(restoreByMember.status).toBe(403);

    // A stranger learns nothing: the agent "does not exist" for them.
    const byStranger = await stranger.client.rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings({ name: 'Hijack' }),
      p_expected_version: 4,
    });
    expectRefusal(byStranger, 404, 'agent_id');
    const anon = await clientFor(server).rpc('save_agent_settings', {
      p_agent_id: agentId,
      p_settings: settings(),
      p_expected_version: 4,
    });
    expect(anon.status).toBe(401);

    // Nor directly through the tables.
    const direct = await owner.client.from('agents').update({ name: 'Direct' }).eq('id', agentId);
    expect(direct.error?.code).toBe('42501');
    const forged = await owner.client
      .from('agent_versions')
      .insert({ agent_id: agentId, version: 50, workspace_id: owner.workspaceId, settings: {} });
    expect(forged.error?.code).toBe('42501');
    const erased = await owner.client.from('agent_versions').delete().eq('agent_id', agentId);
    expect(erased.error?.code).toBe('42501');
    expect(await snapshot(server, ['public.agent_versions'])).toEqual(before);
    expect(await currentVersion()).toBe(4);
  });

  it('history is read by the workspace only', async () => {
    const theirs = await stranger.client.from('agent_versions').select('agent_id');
    expect((theirs.data as { agent_id: string }[]).map((row) => row.agent_id)).toEqual([
      strangerAgentId,
    ]);
    const mine = await member.client
      .from('agent_versions')
      .select('version')
      .eq('agent_id', agentId);
    expect(mine.data).toHaveLength(4);
    const anon = await clientFor(server).from('agent_versions').select('*');
    expect(anon.error?.code).toBe('42501');
  });
});

describe('the workspace’s name and time zone', () => {
  it('are changed by owners and admins, validated, and listed zones are the choices', async () => {
    const saved = await admin.client.rpc('update_workspace', {
      p_workspace_id: owner.workspaceId,
      p_name: '  Northwind Support  ',
      p_time_zone: 'America/Chicago',
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({ name: 'Northwind Support', time_zone: 'America/Chicago' });

    const zones = await member.client.rpc('time_zone_names');
    const names = zones.data as string[];
    expect(names).toContain('Europe/Paris');
    expect(names).toContain('UTC');
    expect(names).not.toContain('EST5EDT');

    for (const [field, name, zone] of [
      ['name', '', 'UTC'],
      ['name', 'n'.repeat(121), 'UTC'],
      ['time_zone', 'Northwind', 'Mars/Olympus_Mons'],
      ['time_zone', 'Northwind', ''],
    ] as const) {
      const refused = await owner.client.rpc('update_workspace', {
        p_workspace_id: owner.workspaceId,
        p_name: name,
        p_time_zone: zone,
      });
      expectRefusal(refused, 400, field);
    }
    const byMember = await member.client.rpc('update_workspace', {
      p_workspace_id: owner.workspaceId,
      p_name: 'Mutiny',
      p_time_zone: 'UTC',
    });
    expect(byMember.status).toBe(403);
    const byStranger = await stranger.client.rpc('update_workspace', {
      p_workspace_id: owner.workspaceId,
      p_name: 'Hijack',
      p_time_zone: 'UTC',
    });
    expectRefusal(byStranger, 404, 'workspace_id');
    const { rows } = await server.db.query(
      'select name, time_zone from public.workspaces where id = $1',
      [owner.workspaceId],
    );
    expect(rows[0]).toEqual({ name: 'Northwind Support', time_zone: 'America/Chicago' });
  });

  it('cannot be set to an unknown zone even by the server', async () => {
    await expect(
      server.db.query(`update public.workspaces set time_zone = 'Nowhere/City' where id = $1`, [
        owner.workspaceId,
      ]),
    ).rejects.toMatchObject({ code: '22023' });
  });
});

describe('phone numbers', () => {
  let numberId: string;

  it('are added by owners and admins in E.164, whatever the formatting typed', async () => {
    const added = await admin.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+1 (415) 555-0199',
      p_label: '  Support line ',
      p_agent_id: agentId,
    });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ e164: '+14155550199', label: 'Support line' });
    numberId = (added.data as { id: string }).id;
    const international = await owner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '0044 20 7946 0958',
      p_label: null,
      p_agent_id: agentId,
    });
    expect(international.data).toMatchObject({ e164: '+442079460958', label: null });
    const listed = await member.client.from('phone_numbers').select('e164').order('e164');
    expect(listed.data).toEqual([{ e164: '+14155550199' }, { e164: '+442079460958' }]);
  });

  it('are unique across all workspaces, refused with a sentence that names no one', async () => {
    const before = await snapshot(server, ['public.phone_numbers']);
    const taken = await stranger.client.rpc('add_phone_number', {
      p_workspace_id: stranger.workspaceId,
      p_e164: '+14155550199',
      p_label: 'Mine now',
      p_agent_id: strangerAgentId,
    });
    expectRefusal(taken, 409, 'e164');
    expect(taken.error!.message).not.toMatch(/northwind|olive/i);
    const twice = await owner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+14155550199',
      p_label: null,
      p_agent_id: agentId,
    });
    expectRefusal(twice, 409, 'e164');
    expect(await snapshot(server, ['public.phone_numbers'])).toEqual(before);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['e164', { p_e164: '' }],
    ['e164', { p_e164: '415-555-0100' }],
    ['e164', { p_e164: '+0 415 555 0100' }],
    ['e164', { p_e164: '+1415555010012345' }],
    ['e164', { p_e164: '+1 415 CALL NOW' }],
    ['label', { p_label: 'l'.repeat(81) }],
    ['label', { p_label: 'Line\u0000one' }],
    ['agent_id', { p_agent_id: null }],
  ];
  it.each(invalid)('refuse a bad %s with 400, naming it, and store nothing', async (field, bad) => {
    const before = await snapshot(server, ['public.phone_numbers']);
    const result = await owner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+14155550111',
      p_label: 'Sales',
      p_agent_id: agentId,
      ...bad,
    });
    expect(result.status, JSON.stringify(result.error)).toBe(400);
    if (result.error?.code === '22023') expectRefusal(result, 400, field);
    expect(await snapshot(server, ['public.phone_numbers'])).toEqual(before);
  });

  it('answer only with an agent of the same workspace', async () => {
    const crossed = await owner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+14155550112',
      p_label: null,
      p_agent_id: strangerAgentId,
    });
    expectRefusal(crossed, 400, 'agent_id');
  });

  it('are changed and removed by owners and admins only', async () => {
    const changed = await owner.client.rpc('update_phone_number', {
      p_id: numberId,
      p_e164: '+14155550198',
      p_label: 'Renewals',
      p_agent_id: agentId,
    });
    expect(changed.data).toMatchObject({ e164: '+14155550198', label: 'Renewals' });

    const byMember = await member.client.rpc('remove_phone_number', { p_id: numberId });
    expect(byMember.status).toBe(403);
    const byStranger = await stranger.client.rpc('update_phone_number', {
      p_id: numberId,
      p_e164: '+14155550198',
      p_label: 'Hijacked',
      p_agent_id: strangerAgentId,
    });
    expectRefusal(byStranger, 404, 'id');
    const removedByStranger = await stranger.client.rpc('remove_phone_number', { p_id: numberId });
    expectRefusal(removedByStranger, 404, 'id');
    const direct = await owner.client
      .from('phone_numbers')
      .insert({ workspace_id: owner.workspaceId, e164: '+14155550113', agent_id: agentId });
    expect(direct.error?.code).toBe('42501');

    const removed = await admin.client.rpc('remove_phone_number', { p_id: numberId });
    expect(removed.error).toBeNull();
    const left = await owner.client.from('phone_numbers').select('e164');
    expect(left.data).toEqual([{ e164: '+442079460958' }]);
    // Free again for anyone.
    const reused = await stranger.client.rpc('add_phone_number', {
      p_workspace_id: stranger.workspaceId,
      p_e164: '+14155550198',
      p_label: null,
      p_agent_id: strangerAgentId,
    });
    expect(reused.error).toBeNull();
  });

  it('refuse a stranger adding to another workspace', async () => {
    const result = await stranger.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+14155550114',
      p_label: null,
      p_agent_id: agentId,
    });
    expectRefusal(result, 404, 'workspace_id');
  });

  it('refuse a signed-in user with no workspace', async () => {
    const partner = await signedInClient(server, { fullName: 'Pat Partner', role: 'partner' });
    const result = await partner.client.rpc('add_phone_number', {
      p_workspace_id: owner.workspaceId,
      p_e164: '+14155550115',
      p_label: null,
      p_agent_id: agentId,
    });
    expectRefusal(result, 404, 'workspace_id');
  });
});
