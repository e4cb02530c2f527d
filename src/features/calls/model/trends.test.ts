import { describe, expect, it } from 'vitest';
import {
  axisLabelIndexes,
  niceScale,
  ratePolylines,
  resolutionRateOfDay,
  stackDay,
  trendDaysSchema,
  type TrendDay,
} from './trends';

const day = (values: Partial<TrendDay> & { day: string }): TrendDay => ({
  resolved: 0,
  escalated: 0,
  voicemail: 0,
  missed: 0,
  ...values,
});

describe('niceScale', () => {
  it('rounds the top up to an even step, ticks from zero', () => {
    expect(niceScale(37)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(niceScale(9)).toEqual({ top: 10, ticks: [0, 5, 10] });
    expect(niceScale(1234)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
    expect(niceScale(99)).toEqual({ top: 100, ticks: [0, 25, 50, 75, 100] });
  });

  it('keeps counts whole and always has an axis', () => {
    expect(niceScale(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(niceScale(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    for (const max of [1, 2, 5, 7, 13, 99, 101, 4999]) {
      const { top, ticks } = niceScale(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(ticks.every(Number.isInteger)).toBe(true);
      expect(ticks.at(-1)).toBe(top);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

describe('stackDay', () => {
  it('stacks the outcomes bottom to top, leaving out empty ones', () => {
    const segments = stackDay(day({ day: '2026-11-01', resolved: 6, voicemail: 2, missed: 2 }), 20);
    expect(segments).toEqual([
      { outcome: 'resolved', count: 6, y0: 0, height: 0.3 },
      { outcome: 'voicemail', count: 2, y0: 0.3, height: 0.1 },
      { outcome: 'missed', count: 2, y0: 0.4, height: 0.1 },
    ]);
  });
});

describe('resolution rate per day', () => {
  it('counts resolved over answered, as the KPI does', () => {
    expect(
      resolutionRateOfDay(day({ day: '2026-11-01', resolved: 3, escalated: 1, missed: 4 })),
    ).toBe(0.75);
    expect(resolutionRateOfDay(day({ day: '2026-11-01', missed: 4 }))).toBeNull();
  });

  it('breaks the line on days without answered calls', () => {
    const lines = ratePolylines([
      day({ day: '2026-11-01', resolved: 1 }),
      day({ day: '2026-11-02', resolved: 1, escalated: 1 }),
      day({ day: '2026-11-03', missed: 2 }),
      day({ day: '2026-11-04', escalated: 1 }),
    ]);
    expect(lines).toEqual([
      [
        [0.125, 0],
        [0.375, 0.5],
      ],
      [[0.875, 1]],
    ]);
  });
});

describe('axisLabelIndexes', () => {
  it('labels the first and the last day and a few between', () => {
    expect(axisLabelIndexes(30)).toEqual([0, 7, 15, 22, 29]);
    expect(axisLabelIndexes(3)).toEqual([0, 1, 2]);
    expect(axisLabelIndexes(0)).toEqual([]);
  });
});

describe('trendDaysSchema', () => {
  it('accepts call_trends rows and refuses broken ones', () => {
    expect(trendDaysSchema.parse([day({ day: '2026-11-01', resolved: 2 })])).toHaveLength(1);
    expect(() => trendDaysSchema.parse([{ day: '2026-11-01', resolved: 2 }])).toThrow();
    expect(() => trendDaysSchema.parse([day({ day: 'Nov 1', resolved: 2 })])).toThrow();
  });
});
