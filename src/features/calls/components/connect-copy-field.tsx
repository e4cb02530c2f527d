import { CopyButton } from '@/components/ui/copy-button';
import { cn } from '@/lib/cn';

/**
 * A value to paste elsewhere (an id, a URL, a secret), shown whole (it wraps
 * on a phone rather than hiding its end) with its copy button.
 */
export function ConnectCopyField({
  label,
  value,
  copyLabel,
  className,
}: {
  label: string;
  value: string;
  /** What the copy button copies, for screen readers ('workspace id'). */
  copyLabel: string;
  className?: string;
}) {
  return (
    <dl className={cn('grid gap-1.5', className)}>
      <dt className="text-sm font-semibold text-ink-900">{label}</dt>
      <dd className="flex flex-wrap items-start gap-2 sm:flex-nowrap">
        <span className="min-w-0 flex-1 basis-full rounded-lg border border-sand-200 bg-sand-50 px-3 py-2 font-mono text-sm break-all text-ink-900 sm:basis-auto">
          {value}
        </span>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </dl>
  );
}
