import { roiDefaults, roiFields, type RoiInputs } from '../content/cost-savings';

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
