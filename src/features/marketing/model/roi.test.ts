import { describe, expect, it } from 'vitest';
import { roiDefaults, roiFields } from '../content/cost-savings';
import { checkRoiInput, computeRoi, formatDollars, parseRoiParams, withRoiParams } from './roi';

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

describe('checkRoiInput', () => {
  const field = (key: string) => roiFields.find((candidate) => candidate.key === key)!;
  const calls = field('monthlyCalls');

  it('accepts a number in range, with thousands separators or spaces', () => {
    expect(checkRoiInput(calls, '4500')).toEqual({ value: 4500 });
    expect(checkRoiInput(calls, ' 2,000 ')).toEqual({ value: 2000 });
    expect(checkRoiInput(calls, '0')).toEqual({ value: 0 });
    expect(checkRoiInput(field('minutesPerCall'), '7.5')).toEqual({ value: 7.5 });
  });

  it('refuses a negative number, saying so', () => {
    expect(checkRoiInput(calls, '-5')).toEqual({
      error: 'The calls per month cannot be negative.',
      isEmpty: false,
    });
    expect(checkRoiInput(field('hourlyCost'), '\u221240')).toMatchObject({
      error: 'The cost per hour cannot be negative.',
    });
  });

  it('refuses what is not a number, with an example', () => {
    for (const text of ['abc', '12abc', '1e3', '0x10', '-', '.', 'Infinity']) {
      expect(checkRoiInput(calls, text)).toEqual({
        error: 'Please enter the calls per month as a number, such as 2,000.',
        isEmpty: false,
      });
    }
    expect(checkRoiInput(field('hourlyCost'), 'lots')).toMatchObject({
      error: 'Please enter the cost per hour as a number, such as $65.',
    });
  });

  it('refuses a number that is too large or too small, naming the limit', () => {
    expect(checkRoiInput(calls, '500001')).toMatchObject({
      error: 'The calls per month cannot be more than 500,000.',
    });
    expect(checkRoiInput(field('resolvedPercent'), '250')).toMatchObject({
      error: 'The share of calls resolved cannot be more than 100%.',
    });
    expect(checkRoiInput(field('minutesPerCall'), '0')).toMatchObject({
      error: 'The minutes per call cannot be less than 1\u00a0min.',
    });
  });

  it('refuses an empty field, and marks it as empty', () => {
    expect(checkRoiInput(calls, '  ')).toEqual({
      error: 'Please enter the calls per month.',
      isEmpty: true,
    });
  });
});
