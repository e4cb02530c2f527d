import {
  ArrowDownLeft,
  ArrowUpRight,
  CircleCheck,
  Frown,
  Meh,
  PhoneMissed,
  Smile,
  UserRoundCheck,
  Voicemail,
} from 'lucide-react';
import { cn } from '@/lib/cn';
import { DIRECTION_LABELS, OUTCOME_LABELS, SENTIMENT_LABELS } from '../model/call-labels';
import type { Direction, Outcome, Sentiment } from '../model/filters';

const OUTCOME_STYLES: Record<Outcome, { className: string; Icon: typeof CircleCheck }> = {
  resolved: { className: 'bg-mint-50 text-mint-800 ring-mint-200', Icon: CircleCheck },
  escalated: { className: 'bg-azure-50 text-azure-800 ring-azure-100', Icon: UserRoundCheck },
  voicemail: { className: 'bg-sand-100 text-ink-700 ring-sand-200', Icon: Voicemail },
  missed: { className: 'bg-danger-50 text-danger-800 ring-danger-200', Icon: PhoneMissed },
};

/** A call's outcome: a word and an icon, the colour only repeats them. */
export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  const { className, Icon } = OUTCOME_STYLES[outcome];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {OUTCOME_LABELS[outcome]}
    </span>
  );
}

const SENTIMENT_ICONS: Record<Sentiment, typeof Smile> = {
  positive: Smile,
  neutral: Meh,
  negative: Frown,
};

export function SentimentLabel({ sentiment }: { sentiment: Sentiment | null }) {
  if (!sentiment) {
    return (
      <span className="text-ink-600">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not rated</span>
      </span>
    );
  }
  const Icon = SENTIMENT_ICONS[sentiment];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap',
        sentiment === 'negative' ? 'text-danger-700' : 'text-ink-700',
      )}
    >
      <Icon aria-hidden="true" className="size-4" />
      {SENTIMENT_LABELS[sentiment]}
    </span>
  );
}

export function DirectionLabel({ direction }: { direction: Direction }) {
  const Icon = direction === 'inbound' ? ArrowDownLeft : ArrowUpRight;
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap text-ink-700">
      <Icon aria-hidden="true" className="size-4" />
      {DIRECTION_LABELS[direction]}
    </span>
  );
}
