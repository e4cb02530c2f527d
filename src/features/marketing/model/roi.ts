import { roiDefaults, roiFields, type RoiField, type RoiInputs } from '../content/cost-savings';

export interface RoiResult {
  resolvedCalls: number;
  hoursFreed: number;
  monthlySavings: number;
  annualSavings: number;
}

/** Hours freed = calls × share resolved × minutes ÷ 60; savings = hours × cost per hour. */
export function computeRoi(inputs: RoiInputs): RoiResult {
  const resolvedCalls = inputs.monthlyCalls * (inputs.resolvedPercent / 100);
  const hoursFreed = (resolvedCalls * inputs.minutesPerCall) / 60;
  const monthlySavings = hoursFreed * inputs.hourlyCost;
  return { resolvedCalls, hoursFreed, monthlySavings, annualSavings: monthlySavings * 12 };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** What the visitor typed into one field: a number to compute with, or why not. */
export type RoiInputCheck = { value: number } | { error: string; isEmpty: boolean };

/** A plain decimal number; thousands separators and spaces are allowed ('2,000'). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A field's figure as the page writes it: '$1,000', '120 min', '100%', '500,000'. */
export function formatFieldValue(field: RoiField, value: number): string {
  const unit = field.unit === '%' ? '%' : field.unit ? `\u00a0${field.unit}` : '';
  return `${field.prefix ?? ''}${formatNumber(value)}${unit}`;
}

/** Checks a typed figure the way the other forms check theirs: refuse it, and say why. */
export function checkRoiInput(field: RoiField, text: string): RoiInputCheck {
  const typed = text.replace(/[\s,]/g, '').replace('\u2212', '-');
  const noun = field.noun;
  if (typed === '') return { error: `Please enter ${noun}.`, isEmpty: true };
  const value = Number(typed);
  if (!DECIMAL.test(typed) || !Number.isFinite(value)) {
    const example = formatFieldValue(field, roiDefaults[field.key]);
    return { error: `Please enter ${noun} as a number, such as ${example}.`, isEmpty: false };
  }
  // Each sentence names its figure: the estimate repeats them, away from their fields.
  const subject = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  if (value < 0) return { error: `${subject} cannot be negative.`, isEmpty: false };
  if (value < field.min) {
    const least = formatFieldValue(field, field.min);
    return { error: `${subject} cannot be less than ${least}.`, isEmpty: false };
  }
  if (value > field.max) {
    const most = formatFieldValue(field, field.max);
    return { error: `${subject} cannot be more than ${most}.`, isEmpty: false };
  }
  return { value };
}

/** Reads the calculator's inputs from a query string; anything missing or invalid keeps its default. */
export function parseRoiParams(params: URLSearchParams): RoiInputs {
  const inputs: RoiInputs = { ...roiDefaults };
  for (const field of roiFields) {
    const raw = params.get(field.param);
    if (raw === null || raw.trim() === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    inputs[field.key] = clamp(value, field.min, field.max);
  }
  return inputs;
}

/** Writes the inputs into a query string, keeping unrelated parameters (such as `ref`). */
export function withRoiParams(params: URLSearchParams, inputs: RoiInputs): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const field of roiFields) next.set(field.param, String(inputs[field.key]));
  return next;
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

export const formatNumber = (value: number) => wholeNumber.format(value);
export const formatDollars = (value: number) => dollars.format(value);
