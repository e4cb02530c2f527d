import { localDay } from './filters';

// Made when used: a format keeps the time zone of the moment it was made.
const timeOfDay = () => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayAndTime = () =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
const fullDate = () =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * When a call started, in the browser's time zone, as short as stays clear:
 * 'Today, 3:05 PM', 'Yesterday, 9:12 AM', 'Nov 20, 4:48 PM', 'Dec 30, 2025, 4:48 PM'.
 */
export function formatCallTime(iso: string, now: Date = new Date()): string {
  const started = new Date(iso);
  if (Number.isNaN(started.getTime())) return iso;
  const day = localDay(started);
  const today = localDay(now);
  const yesterday = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (day === today) return `Today, ${timeOfDay().format(started)}`;
  if (day === yesterday) return `Yesterday, ${timeOfDay().format(started)}`;
  if (started.getFullYear() === now.getFullYear()) return dayAndTime().format(started);
  return fullDate().format(started);
}

/** The first sentence or so of a summary, for lists: at most `length` characters, cut at a word. */
export function excerpt(text: string | null, length = 140): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
