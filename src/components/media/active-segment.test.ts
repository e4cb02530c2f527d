import { describe, expect, it } from 'vitest';
import { activeSpanIndex } from './active-segment';

const spans = [
  { start: 0.5, end: 4 },
  { start: 4.5, end: 9 },
  { start: 9, end: 12 },
];

describe('activeSpanIndex: which transcript line is highlighted at a time', () => {
  it('is none before the first line starts', () => {
    expect(activeSpanIndex(spans, 0)).toBe(-1);
    expect(activeSpanIndex(spans, 0.49)).toBe(-1);
    expect(activeSpanIndex([], 5)).toBe(-1);
  });

  it('is the line being spoken, from its first moment', () => {
    expect(activeSpanIndex(spans, 0.5)).toBe(0);
    expect(activeSpanIndex(spans, 3.99)).toBe(0);
    expect(activeSpanIndex(spans, 6)).toBe(1);
    // One line ends as the next starts: the next one is being spoken.
    expect(activeSpanIndex(spans, 9)).toBe(2);
  });

  it('stays on the last line spoken during a pause and after the end', () => {
    expect(activeSpanIndex(spans, 4.2)).toBe(0);
    expect(activeSpanIndex(spans, 60)).toBe(2);
  });

  it('takes the latest started line when two people speak at once', () => {
    const overlapping = [
      { start: 0, end: 10 },
      { start: 3, end: 5 },
    ];
    expect(activeSpanIndex(overlapping, 4)).toBe(1);
    // The short one is over, the long one still going: the one being spoken wins.
    expect(activeSpanIndex(overlapping, 6)).toBe(0);
  });

  it('does not depend on the order the lines come in', () => {
    const shuffled = [spans[2]!, spans[0]!, spans[1]!];
    expect(activeSpanIndex(shuffled, 1)).toBe(1);
    expect(activeSpanIndex(shuffled, 5)).toBe(2);
    expect(activeSpanIndex(shuffled, 4.2)).toBe(1);
    expect(activeSpanIndex(shuffled, 10)).toBe(0);
  });
});
