import { roiDefaults } from '@/features/marketing/content/cost-savings';
import { computeRoi } from '@/features/marketing/model/roi';

/**
 * The dashboard's estimated savings: the landing page's ROI calculator (same
 * formula, same module) fed with the period's answered calls and resolution
 * rate, at the calculator's default minutes per call and cost per hour. The
 * calculator's "monthly" figure is the period's, since its inputs are.
 */
export function estimateCallSavings({
  answered,
  resolutionRate,
}: {
  answered: number;
  resolutionRate: number;
}): number {
  return computeRoi({
    ...roiDefaults,
    monthlyCalls: answered,
    resolvedPercent: resolutionRate * 100,
  }).monthlySavings;
}

export const SAVINGS_BASIS = `at ${roiDefaults.minutesPerCall} minutes and $${roiDefaults.hourlyCost} an hour per resolved call`;
