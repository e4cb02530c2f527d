import { describe, expect, it } from 'vitest';
import {
  agentFormSchema,
  describeChanges,
  openingStatus,
  toFormValues,
  toStoredSettings,
  type StoredSettings,
} from './agent-settings';

const nineToFive = { open: '09:00', close: '17:00' };
const stored: StoredSettings = {
  name: 'Ava',
  greeting: 'Thanks for calling Northwind, how can I help?',
  voice: 'maya',
  languages: ['en-US', 'es-MX'],
  business_hours: {
    mon: nineToFive,
    tue: nineToFive,
    wed: nineToFive,
    thu: nineToFive,
    fri: { open: '09:00', close: '15:30' },
    sat: { open: '10:00', close: '24:00' },
    sun: null,
  },
  after_hours: 'forward',
  after_hours_forward_to: '+14155550142',
  escalation_triggers: ['caller_asks', 'unresolved'],
  escalation_email: 'csm@northwind.example',
  escalation_phone: null,
};

function issuesFor(overrides: Partial<ReturnType<typeof toFormValues>>) {
  const result = agentFormSchema.safeParse({ ...toFormValues(stored), ...overrides });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('agent settings in the browser', () => {
  it('round-trip between the stored shape and the form', () => {
    const values = toFormValues(stored);
    expect(values.businessHours.sun).toEqual({ isOpen: false, open: '09:00', close: '17:00' });
    // Midnight shows as 00:00 (a time input has no 24:00) and is stored as 24:00.
    expect(values.businessHours.sat).toEqual({ isOpen: true, open: '10:00', close: '00:00' });
    expect(agentFormSchema.parse(values)).toBeTruthy();
    expect(toStoredSettings(values)).toEqual(stored);
  });

  it('refuse what SQL refuses, naming the field', () => {
    expect(issuesFor({ name: '  ' })).toHaveProperty('name');
    expect(issuesFor({ greeting: 'Hi' })).toHaveProperty('greeting');
    expect(issuesFor({ languages: [] })).toHaveProperty('languages');
    expect(
      issuesFor({
        businessHours: {
          ...toFormValues(stored).businessHours,
          tue: { isOpen: true, open: '18:00', close: '09:00' },
        },
      }),
    ).toEqual({ 'businessHours.tue.close': 'The closing time must be after the opening time.' });
    expect(issuesFor({ afterHoursForwardTo: '' })).toHaveProperty('afterHoursForwardTo');
    expect(issuesFor({ afterHoursForwardTo: '555-0100' })).toHaveProperty('afterHoursForwardTo');
    expect(issuesFor({ escalationEmail: 'nope' })).toHaveProperty('escalationEmail');
    expect(issuesFor({ escalationEmail: '', escalationPhone: '' })).toHaveProperty(
      'escalationEmail',
    );
    expect(issuesFor({ escalationTriggers: [], escalationEmail: '' })).toEqual({});
    // A closed day's times are not checked.
    expect(
      issuesFor({
        businessHours: {
          ...toFormValues(stored).businessHours,
          sun: { isOpen: false, open: '', close: '' },
        },
      }),
    ).toEqual({});
  });

  it('say in words what a version changed', () => {
    expect(describeChanges(stored, { ...stored, greeting: 'Hello there, Northwind here.' })).toBe(
      'greeting',
    );
    expect(
      describeChanges(stored, {
        ...stored,
        voice: 'oliver',
        business_hours: { ...stored.business_hours, sat: null },
        escalation_email: null,
      }),
    ).toBe('voice, business hours and hand-off email');
    expect(describeChanges(stored, stored)).toBe('no visible change');
  });

  it('tell whether the agent is open, in the workspace’s time zone', () => {
    // Wednesday 26 Nov 2026, 15:00 UTC = 09:00 in Chicago, 16:00 in Paris.
    const at = new Date('2026-11-25T15:00:00Z');
    expect(openingStatus(stored.business_hours, 'America/Chicago', at)).toEqual({
      isOpen: true,
      next: 'Closes at 17:00',
    });
    expect(openingStatus(stored.business_hours, 'Asia/Tokyo', at)).toEqual({
      // Thursday 00:00 in Tokyo.
      isOpen: false,
      next: 'Opens today at 09:00',
    });
    // Friday 16:00 in Paris: closed until Saturday.
    expect(
      openingStatus(stored.business_hours, 'Europe/Paris', new Date('2026-11-27T15:00:00Z')),
    ).toEqual({ isOpen: false, next: 'Opens tomorrow at 10:00' });
    // Saturday 23:00 in Paris: open until midnight.
    expect(
      openingStatus(stored.business_hours, 'Europe/Paris', new Date('2026-11-28T22:00:00Z')),
    ).toEqual({ isOpen: true, next: 'Open until midnight' });
    expect(
      openingStatus(
        Object.fromEntries(Object.keys(stored.business_hours).map((day) => [day, null])),
        'UTC',
        at,
      ),
    ).toEqual({ isOpen: false, next: null });
  });
});
