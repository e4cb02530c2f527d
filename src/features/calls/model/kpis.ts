import { z } from 'zod';

/** One period's figures, as call_kpis returns them (all from filtered_calls). */
export const kpiSetSchema = z.object({
  calls: z.number(),
  answered: z.number(),
  resolved: z.number(),
  escalated: z.number(),
  voicemail: z.number(),
  missed: z.number(),
  /** resolved ÷ answered; null without answered calls. */
  resolution_rate: z.number().nullable(),
  /** Average duration of the answered calls; null without any. */
  avg_handle_seconds: z.number().nullable(),
  handled_seconds: z.number(),
});
export type KpiSet = z.infer<typeof kpiSetSchema>;

export const callKpisSchema = z.object({ current: kpiSetSchema, previous: kpiSetSchema });
export type CallKpis = z.infer<typeof callKpisSchema>;

/** Estimated savings of a period: the landing page's ROI formula, given by the page. */
export type EstimateSavings = (figures: { answered: number; resolutionRate: number }) => number;

export type Trend = 'up' | 'down' | 'flat';
/** Whether a change is good news; null when it is neither (say, average handle time). */
export type Better = 'up' | 'down' | null;

export interface KpiChange {
  trend: Trend;
  /** What the card shows: '12%', '3.5 pts'; no sign (the arrow and the words say it). */
  amount: string;
  /** The whole change in words, for screen readers and the card's title. */
  sentence: string;
  tone: 'good' | 'bad' | 'neutral';
}

const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const onePlace = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Changes smaller than these read as noise, not as news: shown, but not coloured. */
export const NOTABLE_PERCENT = 2;
export const NOTABLE_POINTS = 1;

function toneOf(trend: Trend, better: Better, isNotable: boolean): KpiChange['tone'] {
  if (trend === 'flat' || better === null || !isNotable) return 'neutral';
  return trend === better ? 'good' : 'bad';
}

function trendOf(difference: number): Trend {
  if (difference > 0) return 'up';
  if (difference < 0) return 'down';
  return 'flat';
}

/**
 * The relative change of a count, amount or duration against the previous
 * period; null when there is nothing to compare with (no previous value, or
 * it was zero: "up ∞%" says nothing).
 */
export function relativeChange(
  current: number | null,
  previous: number | null,
  better: Better,
  against: string,
): KpiChange | null {
  if (current === null || previous === null || previous === 0) return null;
  const ratio = (current - previous) / Math.abs(previous);
  // Below half a percent reads as "no change", as the rounded figure would.
  const rounded = Math.round(ratio * 100);
  const trend = trendOf(rounded);
  const amount = `${percent.format(Math.abs(rounded))}%`;
  return {
    trend,
    amount,
    sentence:
      trend === 'flat'
        ? `No change from ${against}`
        : `${trend === 'up' ? 'Up' : 'Down'} ${amount} from ${against}`,
    tone: toneOf(trend, better, Math.abs(rounded) >= NOTABLE_PERCENT),
  };
}

/** The change of a rate (0–1) in percentage points. */
export function pointsChange(
  current: number | null,
  previous: number | null,
  better: Better,
  against: string,
): KpiChange | null {
  if (current === null || previous === null) return null;
  const points = Math.round((current - previous) * 1000) / 10;
  const trend = trendOf(points);
  const amount = `${onePlace.format(Math.abs(points))} pts`;
  return {
    trend,
    amount,
    sentence:
      trend === 'flat'
        ? `No change from ${against}`
        : `${trend === 'up' ? 'Up' : 'Down'} ${onePlace.format(Math.abs(points))} percentage points from ${against}`,
    tone: toneOf(trend, better, Math.abs(points) >= NOTABLE_POINTS),
  };
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const formatCount = (value: number) => wholeNumber.format(value);

/** 0.734 → '73%'; null → '—'. */
export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${percent.format(rate * 100)}%`;
}

/** 0.734 → '73.4%', for the charts' exact figures. */
export function formatRatePrecise(rate: number | null): string {
  return rate === null ? 'no answered calls' : `${onePlace.format(rate * 100)}%`;
}

/** Seconds as people read a call's length: '45s', '3m 05s', '1h 02m'. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(rest)}s`;
  return `${rest}s`;
}

/** The same, spelled out for screen readers: '3 minutes 5 seconds'. */
export function describeDurationLong(seconds: number | null): string {
  if (seconds === null) return 'no answered calls';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const part = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;
  const parts = [
    hours > 0 ? part(hours, 'hour') : '',
    minutes > 0 ? part(minutes, 'minute') : '',
    rest > 0 || total === 0 ? part(rest, 'second') : '',
  ].filter(Boolean);
  return parts.join(' ');
}

/** A period's savings; zero without answered calls. */
export function savingsOf(kpis: KpiSet, estimate: EstimateSavings): number {
  if (kpis.answered === 0 || kpis.resolution_rate === null) return 0;
  return estimate({ answered: kpis.answered, resolutionRate: kpis.resolution_rate });
}
