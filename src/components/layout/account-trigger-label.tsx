import { ChevronDown } from 'lucide-react';

export const accountTriggerStyles =
  'inline-flex h-10 items-center gap-2 rounded-lg px-2 text-sm font-semibold text-ink-900 hover:bg-sand-100';

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase());
  return letters.join('') || '?';
}

/** What the account menu's button shows: initials, and the name on wider screens. */
export function AccountTriggerLabel({ name }: { name: string }) {
  return (
    <>
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-full bg-azure-700 text-xs font-bold text-white"
      >
        {initials(name)}
      </span>
      <span className="hidden max-w-40 truncate sm:inline">{name}</span>
      <span className="sr-only sm:hidden">Account menu for {name}</span>
      <ChevronDown aria-hidden="true" className="size-4 text-ink-600" />
    </>
  );
}
