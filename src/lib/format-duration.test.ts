import { describe, expect, it } from 'vitest';
import { describeDuration, formatClock } from './format-duration';

describe('describeDuration', () => {
  it('rounds to the second and words minutes and seconds', () => {
    expect(describeDuration(51.11)).toBe('51 seconds');
    expect(describeDuration(55.5)).toBe('56 seconds');
    expect(describeDuration(1)).toBe('1 second');
    expect(describeDuration(60)).toBe('1 minute');
    expect(describeDuration(125)).toBe('2 minutes 5 seconds');
    expect(describeDuration(0)).toBe('0 seconds');
  });
});

describe('formatClock', () => {
  it('shows minutes and two-digit seconds, rounding down', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(7.9)).toBe('0:07');
    expect(formatClock(225)).toBe('3:45');
    expect(formatClock(4502)).toBe('75:02');
  });

  it('never shows a negative or unknown time', () => {
    expect(formatClock(-3)).toBe('0:00');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatClock(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});
