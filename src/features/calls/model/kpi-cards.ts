import {
  describeDurationLong,
  formatCount,
  formatDuration,
  formatRate,
  pointsChange,
  relativeChange,
  savingsOf,
  type CallKpis,
  type EstimateSavings,
  type KpiChange,
} from './kpis';

export interface KpiCard {
  id: 'answered' | 'resolution' | 'handle-time' | 'hand-offs' | 'savings';
  label: string;
  value: string;
  /** The value for screen readers when the short form is cryptic ('3m 05s'). */
  valueLabel?: string;
  change: KpiChange | null;
  /** A short line under the value: what it counts, or its basis. */
  note: string;
}

const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

export const formatDollars = (value: number) => dollars.format(value);

/**
 * The overview's five cards. `against` names the previous period ('the
 * previous 30 days'); `savingsBasis` says how savings are estimated.
 */
export function buildKpiCards(
  kpis: CallKpis,
  options: { estimate: EstimateSavings; against: string; savingsBasis: string },
): KpiCard[] {
  const { current, previous } = kpis;
  const { against, estimate } = options;
  const savings = savingsOf(current, estimate);
  const previousSavings = savingsOf(previous, estimate);
  const handOffShare =
    current.answered > 0
      ? `${formatRate(current.escalated / current.answered)} of answered calls`
      : 'No answered calls';
  return [
    {
      id: 'answered',
      label: 'Calls answered',
      value: formatCount(current.answered),
      change: relativeChange(current.answered, previous.answered, 'up', against),
      note: `of ${formatCount(current.calls)} calls; ${formatCount(current.missed)} missed`,
    },
    {
      id: 'resolution',
      label: 'Resolution rate',
      value: formatRate(current.resolution_rate),
      change: pointsChange(current.resolution_rate, previous.resolution_rate, 'up', against),
      note: `${formatCount(current.resolved)} resolved without a person`,
    },
    {
      id: 'handle-time',
      label: 'Average handle time',
      value: formatDuration(current.avg_handle_seconds),
      valueLabel: describeDurationLong(current.avg_handle_seconds),
      change: relativeChange(
        current.avg_handle_seconds,
        previous.avg_handle_seconds,
        null,
        against,
      ),
      note: 'per answered call',
    },
    {
      id: 'hand-offs',
      label: 'Hand-offs to a CSM',
      value: formatCount(current.escalated),
      change: relativeChange(current.escalated, previous.escalated, 'down', against),
      note: handOffShare,
    },
    {
      id: 'savings',
      label: 'Estimated savings',
      value: formatDollars(savings),
      change: relativeChange(savings, previousSavings, 'up', against),
      note: options.savingsBasis,
    },
  ];
}
