import { describe, expect, it } from 'vitest';
import { describeDuration } from './duration';

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
