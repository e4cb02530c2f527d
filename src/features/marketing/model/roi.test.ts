import { describe, expect, it } from 'vitest';
import { roiDefaults } from '../content/cost-savings';
import { computeRoi, formatDollars, parseRoiParams, withRoiParams } from './roi';

describe('computeRoi', () => {
  it('frees calls × share × minutes ÷ 60 hours and saves hours × cost', () => {
    const result = computeRoi({
      monthlyCalls: 2000,
      minutesPerCall: 8,
      hourlyCost: 65,
      resolvedPercent: 60,
    });
    expect(result.resolvedCalls).toBe(1200);
    expect(result.hoursFreed).toBe(160);
    expect(result.monthlySavings).toBe(10_400);
    expect(result.annualSavings).toBe(124_800);
  });

  it('saves nothing when nothing is resolved', () => {
    expect(computeRoi({ ...roiDefaults, resolvedPercent: 0 }).monthlySavings).toBe(0);
  });
});

describe('the calculator URL', () => {
  it('round-trips every input and keeps unrelated parameters', () => {
    const inputs = { monthlyCalls: 4500, minutesPerCall: 12, hourlyCost: 80, resolvedPercent: 45 };
    const params = withRoiParams(new URLSearchParams('ref=ACME'), inputs);
    expect(params.get('ref')).toBe('ACME');
    expect(params.toString()).toBe('ref=ACME&calls=4500&minutes=12&cost=80&resolved=45');
    expect(parseRoiParams(params)).toEqual(inputs);
  });

  it('keeps defaults for missing or invalid values and clamps out-of-range ones', () => {
    expect(parseRoiParams(new URLSearchParams(''))).toEqual(roiDefaults);
    expect(parseRoiParams(new URLSearchParams('calls=abc&minutes=&cost=Infinity'))).toEqual(
      roiDefaults,
    );
    expect(parseRoiParams(new URLSearchParams('resolved=250&calls=-5&minutes=0'))).toMatchObject({
      resolvedPercent: 100,
      monthlyCalls: 0,
      minutesPerCall: 1,
    });
  });

  it('formats dollars without cents', () => {
    expect(formatDollars(10_400.4)).toBe('$10,400');
  });
});
