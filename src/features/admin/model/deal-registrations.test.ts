import { describe, expect, it } from 'vitest';
import { parsePartnersTab } from './partners';
import { callVolumeLabel, parseRegistrationFilter, teamSizeLabel } from './deal-registrations';

describe('deal registrations in /admin/partners', () => {
  it('reads the four tabs, applications by default', () => {
    expect(parsePartnersTab(new URLSearchParams(''))).toBe('applications');
    expect(parsePartnersTab(new URLSearchParams('tab=registrations'))).toBe('registrations');
    expect(parsePartnersTab(new URLSearchParams('tab=assets'))).toBe('assets');
    expect(parsePartnersTab(new URLSearchParams('tab=partners'))).toBe('partners');
    expect(parsePartnersTab(new URLSearchParams('tab=bogus'))).toBe('applications');
  });

  it('reads the filter, pending by default', () => {
    expect(parseRegistrationFilter(new URLSearchParams(''))).toBe('pending');
    expect(parseRegistrationFilter(new URLSearchParams('registration_status=all'))).toBe('all');
    expect(parseRegistrationFilter(new URLSearchParams('registration_status=rejected'))).toBe(
      'rejected',
    );
    expect(parseRegistrationFilter(new URLSearchParams('registration_status=x'))).toBe('pending');
  });

  it('words the prospect’s size', () => {
    expect(teamSizeLabel('51-200')).toBe('51–200 people');
    expect(callVolumeLabel('2000-10000')).toBe('2,000–10,000 calls');
    expect(callVolumeLabel('unknown')).toBe('unknown');
  });
});
