import { z } from 'zod';
import type { Outcome } from './filters';

/** One local day of call_trends: its calls by outcome (days without calls included). */
export const trendDaySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  resolved: z.number().int().nonnegative(),
  escalated: z.number().int().nonnegative(),
  voicemail: z.number().int().nonnegative(),
  missed: z.number().int().nonnegative(),
});
export type TrendDay = z.infer<typeof trendDaySchema>;

export const trendDaysSchema = z.array(trendDaySchema);

/** Bottom to top in the stacked bars, and the legend's order. */
export const STACK_ORDER: readonly Outcome[] = ['resolved', 'escalated', 'voicemail', 'missed'];

export function callsOfDay(day: TrendDay): number {
  return day.resolved + day.escalated + day.voicemail + day.missed;
}

/** The day's resolution rate as the KPI counts it: resolved ÷ answered; null without answered calls. */
export function resolutionRateOfDay(day: TrendDay): number | null {
  const answered = day.resolved + day.escalated + day.voicemail;
  return answered === 0 ? null : day.resolved / answered;
}

/**
 * A round top for an axis that holds `max`, and its evenly spaced ticks (0
 * included): 37 → 40 with ticks 0, 10, 20, 30, 40. At least 1, so an empty
 * chart still has an axis.
 */
export function niceScale(max: number, tickCount = 4): { top: number; ticks: number[] } {
  const safeMax = Math.max(1, max);
  const rawStep = safeMax / tickCount;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  // Whole steps only: counts of calls have no fractions.
  const step =
    [1, 2, 2.5, 5, 10]
      .map((factor) => factor * magnitude)
      .find((candidate) => candidate >= rawStep && Number.isInteger(candidate)) ??
    Math.max(1, 10 * magnitude);
  const top = Math.ceil(safeMax / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return { top, ticks };
}

export interface BarSegment {
  outcome: Outcome;
  count: number;
  /** Bottom edge and height, as fractions of the chart's height (0 at the bottom). */
  y0: number;
  height: number;
}

/** One day's stacked segments, scaled to `top`; empty outcomes are left out. */
export function stackDay(day: TrendDay, top: number): BarSegment[] {
  const segments: BarSegment[] = [];
  let base = 0;
  for (const outcome of STACK_ORDER) {
    const count = day[outcome];
    if (count === 0) continue;
    segments.push({ outcome, count, y0: base / top, height: count / top });
    base += count;
  }
  return segments;
}

/**
 * The points of the resolution-rate line in a 0–1 square (y 0 at the top,
 * as SVG draws), split where a day has no answered calls, so no line is drawn
 * across a day without a rate.
 */
export function ratePolylines(days: TrendDay[]): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let current: Array<[number, number]> = [];
  days.forEach((day, index) => {
    const rate = resolutionRateOfDay(day);
    if (rate === null) {
      if (current.length > 0) lines.push(current);
      current = [];
      return;
    }
    const x = days.length === 1 ? 0.5 : (index + 0.5) / days.length;
    current.push([x, 1 - rate]);
  });
  if (current.length > 0) lines.push(current);
  return lines;
}

/** Which days get a label under the x axis: the first, the last and a few evenly between. */
export function axisLabelIndexes(length: number, most = 5): number[] {
  if (length <= 0) return [];
  if (length <= most) return Array.from({ length }, (_, index) => index);
  const indexes = new Set<number>();
  for (let slot = 0; slot < most; slot += 1) {
    indexes.add(Math.round((slot * (length - 1)) / (most - 1)));
  }
  return [...indexes].sort((a, b) => a - b);
}
