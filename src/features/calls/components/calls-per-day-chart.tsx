import { OUTCOME_LABELS } from '../model/call-labels';
import { formatDay, type Outcome } from '../model/filters';
import { formatCount } from '../model/kpis';
import { STACK_ORDER, callsOfDay, niceScale, stackDay, type TrendDay } from '../model/trends';
import { ChartFrame, ChartTable } from './chart-frame';

/**
 * Light and dark colours alternate up the stack, so neighbours differ in
 * lightness too (for colour-blind readers); the legend and table name them.
 */
export const OUTCOME_FILLS: Record<Outcome, string> = {
  resolved: 'fill-mint-400',
  escalated: 'fill-azure-700',
  voicemail: 'fill-ink-300',
  missed: 'fill-danger-700',
};
const SWATCHES: Record<Outcome, string> = {
  resolved: 'bg-mint-400',
  escalated: 'bg-azure-700',
  voicemail: 'bg-ink-300',
  missed: 'bg-danger-700',
};

function describeDay(day: TrendDay): string {
  const parts = STACK_ORDER.filter((outcome) => day[outcome] > 0).map(
    (outcome) => `${day[outcome]} ${OUTCOME_LABELS[outcome].toLowerCase()}`,
  );
  const total = callsOfDay(day);
  return `${formatDay(day.day)}: ${total} call${total === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** Calls per day, stacked by outcome. */
export function CallsPerDayChart({
  days,
  periodLabel,
  labelledBy,
}: {
  days: TrendDay[];
  periodLabel: string;
  /** The id of the chart's heading. */
  labelledBy: string;
}) {
  const { top, ticks } = niceScale(Math.max(0, ...days.map(callsOfDay)));
  const totals = Object.fromEntries(
    STACK_ORDER.map((outcome) => [outcome, days.reduce((sum, day) => sum + day[outcome], 0)]),
  ) as Record<Outcome, number>;
  return (
    <figure aria-labelledby={labelledBy} className="grid gap-4">
      <ChartFrame
        ticks={ticks}
        top={top}
        formatTick={formatCount}
        days={days.map((day) => day.day)}
      >
        <svg
          viewBox={`0 0 ${Math.max(1, days.length)} 100`}
          preserveAspectRatio="none"
          className="absolute inset-0 size-full overflow-visible"
        >
          {days.map((day, index) => (
            <g key={day.day}>
              <title>{describeDay(day)}</title>
              <rect x={index} y={0} width={1} height={100} className="fill-transparent" />
              {stackDay(day, top).map((segment) => (
                <rect
                  key={segment.outcome}
                  x={index + 0.15}
                  width={0.7}
                  y={100 - (segment.y0 + segment.height) * 100}
                  height={segment.height * 100}
                  className={`${OUTCOME_FILLS[segment.outcome]} stroke-white`}
                  // Thin bars of a long period: a gap would wash their colour out.
                  strokeWidth={days.length > 31 ? 0 : 1}
                  vectorEffect="non-scaling-stroke"
                />
              ))}
            </g>
          ))}
        </svg>
      </ChartFrame>
      <ul
        aria-label="Calls by outcome"
        className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-ink-700"
      >
        {STACK_ORDER.map((outcome) => (
          <li key={outcome} className="flex items-center gap-2">
            <span aria-hidden="true" className={`size-3 rounded-sm ${SWATCHES[outcome]}`} />
            {OUTCOME_LABELS[outcome]}
            <span className="font-semibold text-ink-900 tabular-nums">
              {formatCount(totals[outcome])}
            </span>
          </li>
        ))}
      </ul>
      <ChartTable
        caption={`Calls per day by outcome, ${periodLabel}`}
        headers={['Day', ...STACK_ORDER.map((outcome) => OUTCOME_LABELS[outcome]), 'All calls']}
        rows={days.map((day) => ({
          key: day.day,
          cells: [
            formatDay(day.day, true),
            ...STACK_ORDER.map((outcome) => day[outcome]),
            callsOfDay(day),
          ],
        }))}
      />
    </figure>
  );
}
