import type { ReactNode } from 'react';
import { formatDay } from '../model/filters';
import { axisLabelIndexes } from '../model/trends';

/**
 * The frame the trend charts share: y-axis labels and grid lines (HTML, so the
 * text never stretches), the plot (an SVG the chart draws in a 0–100 box
 * stretched to fit), and a few day labels under it.
 */
export function ChartFrame({
  ticks,
  top,
  formatTick,
  days,
  children,
}: {
  ticks: number[];
  top: number;
  formatTick: (tick: number) => string;
  days: string[];
  children: ReactNode;
}) {
  const labelled = axisLabelIndexes(days.length, 4);
  return (
    <div aria-hidden="true" className="grid grid-cols-[2.75rem_1fr] gap-x-2">
      <div className="relative h-44 text-right text-xs text-ink-600 tabular-nums">
        {ticks.map((tick) => (
          <span
            key={tick}
            className="absolute right-0 translate-y-1/2"
            style={{ bottom: `${(tick / top) * 100}%` }}
          >
            {formatTick(tick)}
          </span>
        ))}
      </div>
      <div className="relative h-44">
        {ticks.map((tick) => (
          <div
            key={tick}
            className={
              tick === 0
                ? 'absolute inset-x-0 border-t border-ink-300'
                : 'absolute inset-x-0 border-t border-sand-200'
            }
            style={{ bottom: `${(tick / top) * 100}%` }}
          />
        ))}
        {children}
      </div>
      <div />
      <div className="relative mt-2 h-4 text-xs text-ink-600">
        {labelled.map((index) => {
          const isFirst = index === 0;
          const isLast = index === days.length - 1 && days.length > 1;
          return (
            <span
              key={index}
              className="absolute whitespace-nowrap"
              style={
                isFirst
                  ? { left: 0 }
                  : isLast
                    ? { right: 0 }
                    : {
                        left: `${((index + 0.5) / days.length) * 100}%`,
                        transform: 'translateX(-50%)',
                      }
              }
            >
              {formatDay(days[index] ?? '')}
            </span>
          );
        })}
      </div>
    </div>
  );
}

/** The chart's figures as a table for screen readers (the drawing is hidden from them). */
export function ChartTable({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
}) {
  // The wrapper hides it: a table grows to its content whatever its own width says.
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
