import { describe, expect, it } from 'vitest';
import { countChange } from './change';

const against = 'the previous 30 days';

describe('countChange', () => {
  it('gives the rounded percentage up, with the previous count in words', () => {
    expect(countChange(28, 25, against)).toEqual({
      kind: 'percent',
      trend: 'up',
      amount: '12%',
      sentence: 'Up 12% from 25 in the previous 30 days.',
    });
  });

  it('gives the percentage down', () => {
    expect(countChange(1, 4, against)).toEqual({
      kind: 'percent',
      trend: 'down',
      amount: '75%',
      sentence: 'Down 75% from 4 in the previous 30 days.',
    });
  });

  it('calls a count from zero new, since no percentage says anything', () => {
    expect(countChange(3, 0, against)).toEqual({
      kind: 'new',
      sentence: 'New: none in the previous 30 days.',
    });
  });

  it('reads zero after zero as no change', () => {
    expect(countChange(0, 0, against)).toMatchObject({ kind: 'percent', trend: 'flat' });
  });

  it('reads a change under half a percent as no change', () => {
    expect(countChange(1001, 1000, against)).toEqual({
      kind: 'percent',
      trend: 'flat',
      amount: '0%',
      sentence: 'No change from 1,000 in the previous 30 days.',
    });
  });

  it('shows a fall to zero as down 100%, and large rises in full', () => {
    expect(countChange(0, 7, against)).toMatchObject({ trend: 'down', amount: '100%' });
    expect(countChange(2500, 10, against)).toMatchObject({ trend: 'up', amount: '24,900%' });
  });
});
