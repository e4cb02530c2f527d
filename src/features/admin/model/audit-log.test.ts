import { describe, expect, it } from 'vitest';
import { changedFields, formatValue, likePattern, parseAuditFilters } from './audit-log';

describe('the audit log model', () => {
  it('reads known filters from the URL and ignores the rest', () => {
    expect(
      parseAuditFilters(new URLSearchParams('table=leads&action=update&actor=ada&target=42')),
    ).toEqual({ table: 'leads', action: 'update', actor: 'ada', target: '42' });
    expect(parseAuditFilters(new URLSearchParams('table=auth.users&action=drop'))).toEqual({
      table: null,
      action: null,
      actor: '',
      target: '',
    });
  });

  it('lists what a change changed, from before to after', () => {
    expect(
      changedFields({
        action: 'update',
        before: { status: 'new', owner_id: null },
        after: { status: 'contacted', owner_id: 'a1' },
      }),
    ).toEqual([
      { field: 'status', before: 'new', after: 'contacted' },
      { field: 'owner_id', before: '(empty)', after: 'a1' },
    ]);
    expect(changedFields({ action: 'insert', before: null, after: { body: 'Hi' } })).toEqual([
      { field: 'body', before: null, after: 'Hi' },
    ]);
    expect(changedFields({ action: 'delete', before: { day: 1 }, after: null })).toEqual([
      { field: 'day', before: '1', after: null },
    ]);
  });

  it('shows values as text and escapes search patterns', () => {
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
    expect(formatValue(true)).toBe('true');
    expect(likePattern('a_b%c*')).toBe('*a\\_b\\%c*');
  });
});
