import { ArrowDown, ArrowUp, Minus } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import type { KpiCard } from '../model/kpi-cards';
import type { KpiChange } from '../model/kpis';

const TONES: Record<KpiChange['tone'], string> = {
  good: 'text-mint-600',
  bad: 'text-danger-700',
  neutral: 'text-ink-600',
};
const ARROWS = { up: ArrowUp, down: ArrowDown, flat: Minus } as const;

/** The change against the previous period: arrow, amount and words; colour only repeats them. */
function Change({ change, against }: { change: KpiCard['change']; against: string }) {
  if (!change) {
    return <p className="text-sm text-ink-600">Nothing to compare with</p>;
  }
  const Arrow = ARROWS[change.trend];
  const word = change.trend === 'up' ? 'up' : change.trend === 'down' ? 'down' : 'no change';
  return (
    <p className={cn('flex items-center gap-1 text-sm font-medium', TONES[change.tone])}>
      <Arrow aria-hidden="true" className="size-4 shrink-0" />
      <span aria-hidden="true">
        {change.trend === 'flat' ? 'No change' : `${change.amount} ${word}`}
        <span className="font-normal text-ink-600"> vs {against}</span>
      </span>
      <span className="sr-only">{change.sentence}</span>
    </p>
  );
}

/**
 * The period's key figures, each with its change. Without any calls in the
 * previous period the changes give way to one sentence that says so.
 * `isUpdating` dims the last figures while those of new filters load.
 */
export function KpiCards({
  cards,
  against,
  hasPrevious,
  isUpdating = false,
}: {
  cards: KpiCard[];
  against: string;
  hasPrevious: boolean;
  isUpdating?: boolean;
}) {
  return (
    <>
      <ul
        aria-busy={isUpdating || undefined}
        className={cn(
          'grid grid-cols-2 gap-3 transition-opacity sm:gap-4 lg:grid-cols-5',
          isUpdating && 'opacity-60',
        )}
      >
        {cards.map((card, index) => (
          <li
            key={card.id}
            className={cn(
              'flex flex-col gap-1 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5',
              // Five cards in two columns: the last one spans both.
              index === cards.length - 1 && 'col-span-2 lg:col-span-1',
            )}
          >
            <h3 className="text-sm font-semibold text-ink-600">{card.label}</h3>
            <p className="text-2xl font-bold tracking-tight text-ink-900 tabular-nums sm:text-3xl">
              {card.valueLabel ? (
                <>
                  <span aria-hidden="true">{card.value}</span>
                  <span className="sr-only">{card.valueLabel}</span>
                </>
              ) : (
                card.value
              )}
            </p>
            <p className="text-xs text-ink-600">{card.note}</p>
            {hasPrevious ? (
              <div className="mt-auto pt-2">
                <Change change={card.change} against={against} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {hasPrevious ? null : (
        <p className="text-sm text-ink-600">No calls in {against}, so no changes to show yet.</p>
      )}
    </>
  );
}

export function KpiCardsSkeleton() {
  return (
    <div role="status" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
      <span className="sr-only">Loading the key figures…</span>
      {Array.from({ length: 5 }, (_, index) => (
        <div
          key={index}
          className={cn(
            'grid gap-2 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5',
            index === 4 && 'col-span-2 lg:col-span-1',
          )}
        >
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-8 w-20" />
          <Skeleton className="h-3 w-28" />
          <Skeleton className="mt-2 h-4 w-32" />
        </div>
      ))}
    </div>
  );
}
