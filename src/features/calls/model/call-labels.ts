import type { Direction, Outcome, Sentiment } from './filters';

/** How a call's fields read for people. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  resolved: 'Resolved',
  escalated: 'Handed to a CSM',
  voicemail: 'Voicemail',
  missed: 'Missed',
};

export const SENTIMENT_LABELS: Record<Sentiment, string> = {
  positive: 'Positive',
  neutral: 'Neutral',
  negative: 'Negative',
};

export const DIRECTION_LABELS: Record<Direction, string> = {
  inbound: 'Inbound',
  outbound: 'Outbound',
};

export const SPEAKER_LABELS = { agent: 'Agent', caller: 'Caller' } as const;

/** 'renewal_date' or 'renewalDate' as 'Renewal date'. */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}
