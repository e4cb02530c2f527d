import { FlaskConical } from 'lucide-react';

/** Marks a call of the sample data a new workspace starts with. */
export function SampleCallBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-ink-900 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">
      <FlaskConical aria-hidden="true" className="size-3.5" />
      Sample call
    </span>
  );
}
