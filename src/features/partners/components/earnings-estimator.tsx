import { useId, useState } from 'react';
import { useHydrated } from '@/lib/use-hydrated';
import { estimateEarnings, estimatorDefaults, type EstimateInput } from '../model/program';
import { formatRate } from '@/config/partner-program';

const dollars = (value: number) =>
  value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** What a partner could earn in a year, with the formula shown. */
export function EarningsEstimator() {
  const id = useId();
  const [input, setInput] = useState<EstimateInput>(estimatorDefaults);
  // A prerendered slider moved before the code runs would be reset by it: wait.
  const isHydrated = useHydrated();
  const estimate = estimateEarnings(input);
  const sliders = [
    {
      key: 'referralsPerMonth',
      label: 'Teams you refer a month',
      min: 0,
      max: 20,
      step: 1,
      format: (v: number) => String(v),
    },
    {
      key: 'closeRate',
      label: 'Share that become customers',
      min: 0.05,
      max: 0.6,
      step: 0.05,
      format: formatRate,
    },
    {
      key: 'monthlyContract',
      label: 'Average subscription a month',
      min: 300,
      max: 10000,
      step: 100,
      format: dollars,
    },
  ] as const;
  return (
    <div className="grid gap-8 rounded-2xl border border-sand-200 bg-white p-6 sm:p-8 lg:grid-cols-2">
      <div className="grid gap-6">
        {sliders.map((slider) => (
          <div key={slider.key} className="grid gap-2">
            <div className="flex items-baseline justify-between gap-3">
              <label htmlFor={`${id}-${slider.key}`} className="text-sm font-semibold text-ink-900">
                {slider.label}
              </label>
              <output
                htmlFor={`${id}-${slider.key}`}
                className="font-semibold text-azure-800 tabular-nums"
              >
                {slider.format(input[slider.key])}
              </output>
            </div>
            <input
              id={`${id}-${slider.key}`}
              type="range"
              min={slider.min}
              max={slider.max}
              step={slider.step}
              value={input[slider.key]}
              disabled={!isHydrated}
              onChange={(event) => setInput({ ...input, [slider.key]: Number(event.target.value) })}
              className="h-11 w-full accent-azure-700"
            />
          </div>
        ))}
      </div>
      <div
        className="grid content-center gap-3 rounded-xl bg-ink-900 p-6 text-white"
        aria-live="polite"
      >
        <p className="text-sm text-ink-100">Estimated commission in a year</p>
        <p className="text-4xl font-bold tabular-nums">{dollars(estimate.yearlyCommission)}</p>
        <p className="text-ink-100">
          {estimate.customersPerYear} new customers a year puts you in{' '}
          <strong className="text-white">{estimate.tier.name}</strong> at{' '}
          {formatRate(estimate.tier.rate)}.
        </p>
        <p className="text-xs text-ink-100">
          Customers × subscription × 12 months × your rate. Illustrative: what you earn depends on
          the contracts your referrals sign.
        </p>
      </div>
    </div>
  );
}
