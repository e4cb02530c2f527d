import { Link2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { fieldProps } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { replaceSearch, useSearchString } from '@/lib/use-search-string';
import { costSavings, roiFields, type RoiField, type RoiInputs } from '../content/cost-savings';
import {
  checkRoiInput,
  computeRoi,
  formatDollars,
  formatNumber,
  parseRoiParams,
  withRoiParams,
} from '../model/roi';

/** What the visitor typed, per field: until it leaves the field, or for as long as it is refused. */
type Drafts = Partial<Record<keyof RoiInputs, string>>;
type FieldFlags = Partial<Record<keyof RoiInputs, true>>;

/** Keeps a number and its unit on one line. */
const NBSP = '\u00a0';

/**
 * The numbers live in the URL, so a result can be shared. The server and the
 * first (hydrating) render read an empty query, hence the defaults the
 * prerendered HTML shows; the URL's values apply right after.
 */
export function RoiCalculator() {
  const search = useSearchString();
  const inputs = useMemo(() => parseRoiParams(new URLSearchParams(search)), [search]);
  const [drafts, setDrafts] = useState<Drafts>({});
  // An empty field is only refused once the visitor leaves it, not while they retype a figure.
  const [blurred, setBlurred] = useState<FieldFlags>({});
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const result = useMemo(() => computeRoi(inputs), [inputs]);
  const formId = useId();

  function handleChange(field: RoiField, text: string) {
    setDrafts((current) => ({ ...current, [field.key]: text }));
    setBlurred(({ [field.key]: _blurred, ...rest }) => rest);
    setCopyState('idle');
    const check = checkRoiInput(field, text);
    if (!('value' in check)) return;
    const next = { ...inputs, [field.key]: check.value };
    replaceSearch(withRoiParams(new URLSearchParams(window.location.search), next));
  }

  function handleBlur(field: RoiField) {
    const draft = drafts[field.key];
    if (draft === undefined) return;
    // A refused figure stays as typed, with its reason; an accepted one is shown as computed.
    if ('value' in checkRoiInput(field, draft)) {
      setDrafts(({ [field.key]: _draft, ...rest }) => rest);
    } else {
      setBlurred((current) => ({ ...current, [field.key]: true }));
    }
  }

  function errorFor(field: RoiField): string | undefined {
    const draft = drafts[field.key];
    if (draft === undefined) return undefined;
    const check = checkRoiInput(field, draft);
    if ('value' in check || (check.isEmpty && !blurred[field.key])) return undefined;
    return check.error;
  }

  const refusals = roiFields.flatMap((field) => errorFor(field) ?? []);

  async function copyLink() {
    const url = `${window.location.origin}${window.location.pathname}?${withRoiParams(new URLSearchParams(window.location.search), inputs)}`;
    try {
      await navigator.clipboard.writeText(url);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  }

  const hours = formatNumber(result.hoursFreed);
  return (
    // The section's code loads when the calculator nears the viewport, not its heading (LazySection).
    <div
      data-hydrate-from
      className="mt-14 overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-sand-200"
    >
      <div className="grid lg:grid-cols-[minmax(0,1.1fr)_minmax(0,0.9fr)]">
        <form
          id={formId}
          className="p-6 sm:p-10"
          onSubmit={(event) => event.preventDefault()}
          aria-labelledby={`${formId}-title`}
        >
          <h3 id={`${formId}-title`} className="text-2xl font-bold tracking-tight text-ink-900">
            {costSavings.calculator.heading}
          </h3>
          <p className="mt-2 text-ink-600">{costSavings.calculator.intro}</p>
          <div className="mt-8 grid gap-6 sm:grid-cols-2">
            {roiFields.map((field) => {
              const inputId = `${formId}-${field.param}`;
              const error = errorFor(field);
              return (
                <div key={field.key}>
                  <label htmlFor={inputId} className="block text-sm font-semibold text-ink-900">
                    {field.label}
                  </label>
                  <div
                    className={cn(
                      'mt-2 flex items-center rounded-lg bg-sand-50 ring-1 focus-within:ring-2',
                      error ? 'ring-danger-700' : 'ring-sand-200 focus-within:ring-azure-500',
                    )}
                  >
                    {field.prefix ? (
                      <span className="pl-3 text-ink-600">{field.prefix}</span>
                    ) : null}
                    {/* Text, not number: a browser empties a number field it cannot read, and the reason would be lost. */}
                    <input
                      {...fieldProps(inputId, { hint: field.hint, error })}
                      name={field.param}
                      type="text"
                      inputMode="decimal"
                      autoComplete="off"
                      value={drafts[field.key] ?? String(inputs[field.key])}
                      onChange={(event) => handleChange(field, event.target.value)}
                      onBlur={() => handleBlur(field)}
                      className="h-11 w-full min-w-0 bg-transparent px-3 text-lg font-semibold text-ink-900 tabular-nums outline-none"
                    />
                    {field.unit ? <span className="pr-3 text-ink-600">{field.unit}</span> : null}
                  </div>
                  <p id={`${inputId}-hint`} className="mt-1.5 text-sm text-sand-700">
                    {field.hint}
                  </p>
                  {error ? (
                    <p id={`${inputId}-error`} className="mt-1 text-sm font-medium text-danger-700">
                      {error}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </div>
          <div className="mt-8 rounded-2xl bg-sand-50 p-5 ring-1 ring-sand-200">
            <p className="text-sm font-semibold text-ink-900">
              {costSavings.calculator.formulaHeading}
            </p>
            <p
              className="mt-2 font-mono text-[13px] leading-6 text-ink-700"
              data-testid="roi-formula"
            >
              Hours freed = {formatNumber(inputs.monthlyCalls)} calls × {inputs.resolvedPercent}%
              resolved × {inputs.minutesPerCall}
              {NBSP}min ÷ 60 = {hours}
              {NBSP}h
              <br />
              Savings = {hours}
              {NBSP}h × {formatDollars(inputs.hourlyCost)} per hour ={' '}
              {formatDollars(result.monthlySavings)} a month
            </p>
          </div>
        </form>
        <div className="flex flex-col bg-ink-900 p-6 text-white sm:p-10">
          <div aria-live="polite" aria-atomic="true">
            <p className="text-sm font-semibold tracking-wide text-azure-400 uppercase">
              Estimated savings
            </p>
            {refusals.length > 0 ? (
              <p className="mt-2 text-sm text-ink-100" data-testid="roi-refused">
                Not updated: {refusals.join(' ')}
              </p>
            ) : null}
            <p
              className="mt-3 text-5xl font-bold tracking-tight tabular-nums"
              data-testid="roi-monthly"
            >
              {formatDollars(result.monthlySavings)}
              <span className="ml-2 text-lg font-medium text-ink-100">a month</span>
            </p>
            <dl className="mt-6 grid grid-cols-2 gap-4">
              <div className="rounded-2xl bg-white/5 p-4 ring-1 ring-white/10">
                <dt className="text-sm text-ink-100">CSM hours freed</dt>
                <dd className="mt-1 text-2xl font-bold tabular-nums" data-testid="roi-hours">
                  {hours}
                  {NBSP}h
                </dd>
              </div>
              <div className="rounded-2xl bg-white/5 p-4 ring-1 ring-white/10">
                <dt className="text-sm text-ink-100">A year</dt>
                <dd className="mt-1 text-2xl font-bold tabular-nums" data-testid="roi-annual">
                  {formatDollars(result.annualSavings)}
                </dd>
              </div>
            </dl>
          </div>
          <p className="mt-8 border-t border-white/10 pt-6 text-sm text-ink-100">
            {costSavings.calculator.assumption}
          </p>
          <button
            type="button"
            onClick={copyLink}
            className="mt-6 inline-flex items-center gap-2 self-start rounded-lg px-3 py-2 text-sm font-semibold text-azure-400 ring-1 ring-white/20 hover:bg-white/10"
          >
            <Link2 aria-hidden="true" className="size-4" />
            {copyState === 'copied'
              ? 'Link copied'
              : copyState === 'failed'
                ? 'Copy the address bar instead'
                : 'Copy a link to these numbers'}
          </button>
        </div>
      </div>
    </div>
  );
}
