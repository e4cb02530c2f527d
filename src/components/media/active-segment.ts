/** A stretch of a recording, in the same unit as the time it is compared with. */
export interface TimedSpan {
  start: number;
  end: number;
}

/**
 * Which span a transcript highlights at `time`: the one being spoken (the
 * latest started, when two overlap), else during a pause the last one
 * started before it; -1 before the first. Spans may come in any order.
 */
export function activeSpanIndex(spans: readonly TimedSpan[], time: number): number {
  let active = -1;
  let isActiveSpoken = false;
  spans.forEach((span, index) => {
    if (span.start > time) return;
    const isSpoken = time < span.end;
    const current = spans[active];
    if (
      !current ||
      (isSpoken && !isActiveSpoken) ||
      (isSpoken === isActiveSpoken && span.start >= current.start)
    ) {
      active = index;
      isActiveSpoken = isSpoken;
    }
  });
  return active;
}
