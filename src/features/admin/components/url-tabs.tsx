import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * Tabs whose choice lives in the URL (the caller reads and writes it): arrow
 * keys move between them, the panel is labelled by its tab.
 */
export function UrlTabs<Id extends string>({
  label,
  idPrefix,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  idPrefix: string;
  tabs: readonly { id: Id; label: ReactNode }[];
  selected: Id;
  onSelect: (id: Id) => void;
  children: ReactNode;
}) {
  const refs = useRef<Partial<Record<Id, HTMLButtonElement | null>>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.id === selected);
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };

  return (
    <div className="grid gap-6">
      <div
        role="tablist"
        aria-label={label}
        className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-sand-100 p-1"
        onKeyDown={onKeyDown}
      >
        {tabs.map((option) => (
          <button
            key={option.id}
            ref={(element) => {
              refs.current[option.id] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${option.id}`}
            aria-selected={selected === option.id}
            aria-controls={`${idPrefix}-panel-${option.id}`}
            tabIndex={selected === option.id ? 0 : -1}
            onClick={() => onSelect(option.id)}
            className={cn(
              'rounded-md px-4 py-2 text-sm font-semibold',
              selected === option.id
                ? 'bg-white text-ink-900 shadow-xs'
                : 'text-ink-600 hover:text-ink-900',
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${idPrefix}-panel-${selected}`}
        aria-labelledby={`${idPrefix}-tab-${selected}`}
      >
        {children}
      </div>
    </div>
  );
}
