import { describe, expect, it } from 'vitest';
import { buildKpiCards } from './kpi-cards';
import {
  callKpisSchema,
  describeDurationLong,
  formatDuration,
  formatRate,
  pointsChange,
  relativeChange,
  type KpiSet,
} from './kpis';

const against = 'the previous 30 days';

describe('relativeChange', () => {
  it('rounds to a whole percent and says which way', () => {
    expect(relativeChange(120, 100, 'up', against)).toEqual({
      trend: 'up',
      amount: '20%',
      sentence: 'Up 20% from the previous 30 days',
      tone: 'good',
    });
    expect(relativeChange(75, 100, 'up', against)).toMatchObject({
      trend: 'down',
      amount: '25%',
      tone: 'bad',
    });
  });

  it('calls a fall good news when less is better, and neither when it is neither', () => {
    expect(relativeChange(8, 10, 'down', against)?.tone).toBe('good');
    expect(relativeChange(12, 10, 'down', against)?.tone).toBe('bad');
    expect(relativeChange(12, 10, null, against)?.tone).toBe('neutral');
  });

  it('treats a change that rounds to 0% as no change', () => {
    expect(relativeChange(1001, 1000, 'up', against)).toMatchObject({
      trend: 'flat',
      amount: '0%',
      sentence: 'No change from the previous 30 days',
      tone: 'neutral',
    });
  });

  it('has nothing to compare with a previous zero or a missing value', () => {
    expect(relativeChange(5, 0, 'up', against)).toBeNull();
    expect(relativeChange(null, 10, 'up', against)).toBeNull();
    expect(relativeChange(10, null, 'up', against)).toBeNull();
  });
});

describe('pointsChange', () => {
  it('gives a rate’s change in percentage points, to one place', () => {
    expect(pointsChange(0.734, 0.7, 'up', against)).toEqual({
      trend: 'up',
      amount: '3.4 pts',
      sentence: 'Up 3.4 percentage points from the previous 30 days',
      tone: 'good',
    });
    expect(pointsChange(0.5, 0.62, 'up', against)).toMatchObject({
      trend: 'down',
      amount: '12 pts',
    });
    expect(pointsChange(0.5, null, 'up', against)).toBeNull();
    expect(pointsChange(0.5, 0.5004, 'up', against)?.trend).toBe('flat');
  });

  it('leaves small changes uncoloured: news, not noise', () => {
    expect(pointsChange(0.697, 0.7, 'up', against)).toMatchObject({
      trend: 'down',
      amount: '0.3 pts',
      tone: 'neutral',
    });
    expect(pointsChange(0.69, 0.7, 'up', against)?.tone).toBe('bad');
    expect(relativeChange(101, 100, 'up', against)).toMatchObject({ trend: 'up', tone: 'neutral' });
    expect(relativeChange(102, 100, 'up', against)?.tone).toBe('good');
  });
});

describe('formats', () => {
  it('writes durations short and long', () => {
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(185)).toBe('3m 05s');
    expect(formatDuration(3720)).toBe('1h 02m');
    expect(formatDuration(null)).toBe('—');
    expect(describeDurationLong(185)).toBe('3 minutes 5 seconds');
    expect(describeDurationLong(60)).toBe('1 minute');
    expect(describeDurationLong(0)).toBe('0 seconds');
  });

  it('writes rates as whole percents', () => {
    expect(formatRate(0.7349)).toBe('73%');
    expect(formatRate(null)).toBe('—');
  });
});

const kpiSet = (overrides: Partial<KpiSet>): KpiSet => ({
  calls: 0,
  answered: 0,
  resolved: 0,
  escalated: 0,
  voicemail: 0,
  missed: 0,
  resolution_rate: null,
  avg_handle_seconds: null,
  handled_seconds: 0,
  ...overrides,
});

describe('buildKpiCards', () => {
  const kpis = {
    current: kpiSet({
      calls: 220,
      answered: 200,
      resolved: 150,
      escalated: 30,
      voicemail: 20,
      missed: 20,
      resolution_rate: 0.75,
      avg_handle_seconds: 190,
    }),
    previous: kpiSet({
      calls: 110,
      answered: 100,
      resolved: 70,
      escalated: 30,
      missed: 10,
      resolution_rate: 0.7,
      avg_handle_seconds: 200,
    }),
  };
  // The landing page's formula, with its defaults: 8 minutes a call at $65 an hour.
  const estimate = ({ answered, resolutionRate }: { answered: number; resolutionRate: number }) =>
    ((answered * resolutionRate * 8) / 60) * 65;

  it('shows the five figures with their changes', () => {
    const cards = buildKpiCards(kpis, { estimate, against, savingsBasis: 'basis' });
    expect(
      cards.map((card) => [card.label, card.value, card.change?.amount, card.change?.tone]),
    ).toEqual([
      ['Calls answered', '200', '100%', 'good'],
      ['Resolution rate', '75%', '5 pts', 'good'],
      ['Average handle time', '3m 10s', '5%', 'neutral'],
      ['Hand-offs to a CSM', '30', '0%', 'neutral'],
      // 150 resolved × 8 min = 20 h × $65; before, 70 × 8 min ≈ 9.33 h.
      ['Estimated savings', '$1,300', '114%', 'good'],
    ]);
    expect(cards[3]?.note).toBe('15% of answered calls');
  });

  it('shows dashes and no change for a period without calls', () => {
    const empty = { current: kpiSet({}), previous: kpiSet({}) };
    const cards = buildKpiCards(empty, { estimate, against, savingsBasis: 'basis' });
    expect(cards.map((card) => card.value)).toEqual(['0', '—', '—', '0', '$0']);
    expect(cards.every((card) => card.change === null)).toBe(true);
  });
});

describe('callKpisSchema', () => {
  it('accepts what call_kpis returns and refuses anything else', () => {
    const set = kpiSet({ calls: 3, answered: 2, resolution_rate: 0.5, avg_handle_seconds: 61.5 });
    expect(callKpisSchema.parse({ current: set, previous: set })).toEqual({
      current: set,
      previous: set,
    });
    expect(() => callKpisSchema.parse({ current: set })).toThrow();
    expect(() =>
      callKpisSchema.parse({ current: { ...set, calls: '3' }, previous: set }),
    ).toThrow();
  });
});
