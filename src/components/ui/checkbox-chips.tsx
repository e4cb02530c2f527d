import { cn } from '@/lib/cn';

/** A set of checkboxes drawn as chips: a multiple choice of a filter's values. */
export function CheckboxChips<T extends string>({
  legend,
  values,
  labels,
  selected,
  onToggle,
}: {
  legend: string;
  values: readonly T[];
  labels: Record<T, string>;
  selected: T[];
  onToggle: (value: T) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-ink-900">{legend}</legend>
      <div className="mt-1.5 flex flex-wrap gap-2">
        {values.map((value) => {
          const isChecked = selected.includes(value);
          return (
            <label
              key={value}
              className={cn(
                'inline-flex h-9 cursor-pointer items-center gap-2 rounded-full px-3 text-sm font-medium ring-1 ring-inset has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-azure-500',
                isChecked
                  ? 'bg-azure-50 text-azure-800 ring-azure-700'
                  : 'bg-white text-ink-700 ring-sand-200 hover:bg-sand-100',
              )}
            >
              <input
                type="checkbox"
                checked={isChecked}
                onChange={() => onToggle(value)}
                className="size-4 accent-azure-700 focus-visible:outline-none"
              />
              {labels[value]}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * The calls page's filters. Every change goes to the URL at once (the search
 * and number after a pause), so the view can be shared or bookmarked. On a
 * phone the filters beyond search and sort fold away behind a button.
 */
