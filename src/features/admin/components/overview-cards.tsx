import { ArrowDown, ArrowRight, ArrowUp, Minus, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import type { CountChange } from '../model/change';
import type { OverviewCard } from '../model/overview';

const ARROWS = { up: ArrowUp, down: ArrowDown, flat: Minus } as const;
const TONES = { up: 'text-mint-600', down: 'text-danger-700', flat: 'text-ink-600' } as const;

/** Arrow and amount for the eye; the whole sentence for screen readers. */
function Change({ change, against }: { change: CountChange; against: string }) {
  if (change.kind === 'new') {
    return (
      <p className="flex items-center gap-1 text-sm font-medium text-azure-700">
        <Sparkles aria-hidden="true" className="size-4 shrink-0" />
        <span aria-hidden="true">
          New <span className="font-normal text-ink-600">vs none in {against}</span>
        </span>
        <span className="sr-only">{change.sentence}</span>
      </p>
    );
  }
  const Arrow = ARROWS[change.trend];
  return (
    <p className={cn('flex items-center gap-1 text-sm font-medium', TONES[change.trend])}>
      <Arrow aria-hidden="true" className="size-4 shrink-0" />
      <span aria-hidden="true">
        {change.trend === 'flat' ? 'No change' : `${change.amount} ${change.trend}`}
        <span className="font-normal text-ink-600"> vs {against}</span>
      </span>
      <span className="sr-only">{change.sentence}</span>
    </p>
  );
}

/** The period's four counts, each with its change and a link into its list. */
export function OverviewCards({
  cards,
  against,
  isUpdating = false,
}: {
  cards: OverviewCard[];
  against: string;
  /** Dims the last figures while another period's load. */
  isUpdating?: boolean;
}) {
  return (
    <ul
      aria-busy={isUpdating || undefined}
      className={cn(
        'grid gap-3 transition-opacity sm:grid-cols-2 sm:gap-4 lg:grid-cols-4',
        isUpdating && 'opacity-60',
      )}
    >
      {cards.map((card) => (
        <li
          key={card.id}
          className="flex flex-col gap-1 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
        >
          <h3 className="text-sm font-semibold text-ink-600">{card.label}</h3>
          <p className="text-3xl font-bold tracking-tight text-ink-900 tabular-nums">
            {card.value}
          </p>
          <p className="text-xs text-ink-600">{card.note}</p>
          <div className="pt-2">
            <Change change={card.change} against={against} />
          </div>
          <Link
            to={card.href}
            className="mt-auto inline-flex items-center gap-1 pt-3 text-sm font-semibold text-azure-700 hover:underline"
          >
            {card.linkLabel}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function OverviewCardsSkeleton() {
  return (
    <div role="status" className="grid gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-4">
      <span className="sr-only">Loading the overview…</span>
      {Array.from({ length: 4 }, (_, index) => (
        <div
          key={index}
          className="grid gap-2 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
        >
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-9 w-16" />
          <Skeleton className="h-3 w-36" />
          <Skeleton className="mt-2 h-4 w-40" />
          <Skeleton className="mt-3 h-4 w-24" />
        </div>
      ))}
    </div>
  );
}
