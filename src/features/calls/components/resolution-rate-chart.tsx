import { formatDay } from '../model/filters';
import { formatRatePrecise } from '../model/kpis';
import { ratePolylines, resolutionRateOfDay, type TrendDay } from '../model/trends';
import { ChartFrame, ChartTable } from './chart-frame';

const RATE_TICKS = [0, 25, 50, 75, 100];

/** The share of answered calls resolved without a person, day by day. */
export function ResolutionRateChart({
  days,
  periodLabel,
  labelledBy,
}: {
  days: TrendDay[];
  periodLabel: string;
  /** The id of the chart's heading. */
  labelledBy: string;
}) {
  const lines = ratePolylines(days);
  return (
    <figure aria-labelledby={labelledBy} className="grid gap-4">
      <ChartFrame
        ticks={RATE_TICKS}
        top={100}
        formatTick={(tick) => `${tick}%`}
        days={days.map((day) => day.day)}
      >
        <svg
          viewBox="0 0 100 100"
          preserveAspectRatio="none"
          className="absolute inset-0 size-full overflow-visible"
        >
          {lines.map((points) => (
            <polyline
              key={points[0]?.join()}
              points={points.map(([x, y]) => `${x * 100},${y * 100}`).join(' ')}
              className="fill-none stroke-azure-700"
              strokeWidth={2.5}
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
        {/* Dots in HTML, so they stay round in the stretched drawing; on a long
            period only for a day that stands alone (no line to show it). */}
        {lines
          .filter((points) => days.length <= 31 || points.length === 1)
          .flat()
          .map(([x, y]) => (
            <span
              key={`${x}`}
              className="absolute size-2 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-azure-700"
              style={{ left: `${x * 100}%`, top: `${y * 100}%` }}
            />
          ))}
      </ChartFrame>
      <p className="text-sm text-ink-600">
        Resolved calls as a share of answered calls. Days without answered calls leave a gap.
      </p>
      <ChartTable
        caption={`Resolution rate per day, ${periodLabel}`}
        headers={['Day', 'Resolution rate', 'Resolved', 'Answered']}
        rows={days.map((day) => ({
          key: day.day,
          cells: [
            formatDay(day.day, true),
            formatRatePrecise(resolutionRateOfDay(day)),
            day.resolved,
            day.resolved + day.escalated + day.voicemail,
          ],
        }))}
      />
    </figure>
  );
}
