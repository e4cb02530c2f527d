/**
 * A count's change against the previous period, in words and figures. A
 * percentage needs something to compare with: after a period with none, a
 * count is 'new'.
 */

export type CountChange =
  | { kind: 'new'; sentence: string }
  | { kind: 'percent'; trend: 'up' | 'down' | 'flat'; amount: string; sentence: string };

const counts = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return counts.format(value);
}

export function countChange(current: number, previous: number, against: string): CountChange {
  const from = `${formatCount(previous)} in ${against}`;
  if (previous === 0) {
    return current === 0
      ? { kind: 'percent', trend: 'flat', amount: '0%', sentence: `No change: none in ${against}.` }
      : { kind: 'new', sentence: `New: none in ${against}.` };
  }
  // Below half a percent reads as no change, as the rounded figure would.
  const rounded = Math.round(((current - previous) / previous) * 100);
  const amount = `${formatCount(Math.abs(rounded))}%`;
  if (rounded === 0)
    return { kind: 'percent', trend: 'flat', amount, sentence: `No change from ${from}.` };
  const trend = rounded > 0 ? 'up' : 'down';
  return {
    kind: 'percent',
    trend,
    amount,
    sentence: `${trend === 'up' ? 'Up' : 'Down'} ${amount} from ${from}.`,
  };
}
