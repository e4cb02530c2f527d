import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { MAX_QUERY_LENGTH, normalizeNumber } from '../model/filters';

export const SEARCH_DEBOUNCE_MS = 350;

/** Calls `apply` once typing pauses; the latest `apply` is used. */
function useDebounced(apply: (value: string) => void) {
  const latest = useRef(apply);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    latest.current = apply;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return (value: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(value), SEARCH_DEBOUNCE_MS);
  };
}

/**
 * The text of a box that edits a URL value: what the person types, until the
 * URL changes from elsewhere ("Clear filters", back): then the URL's value.
 * (Adjusted while rendering, as React advises, not in an effect.)
 */
function useFollowedText(value: string, matches: (text: string) => boolean) {
  const [text, setText] = useState(value);
  const [followed, setFollowed] = useState(value);
  if (followed !== value) {
    setFollowed(value);
    if (!matches(text)) setText(value);
  }
  return [text, setText] as const;
}

/**
 * Full-text search over summaries and transcripts. The URL follows the box
 * after a pause in typing; Enter applies at once.
 */
export function SearchBox({
  value,
  onChange,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  const id = useId();
  const [text, setText] = useFollowedText(value, (typed) => typed.trim() === value);
  const schedule = useDebounced((typed) => {
    if (typed.trim() !== value) onChange(typed.trim());
  });
  return (
    <form
      role="search"
      className={cn('grid gap-1.5', className)}
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== value) onChange(text.trim());
      }}
    >
      <label htmlFor={id} className="text-sm font-semibold text-ink-900">
        Search calls
      </label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-600"
        />
        <Input
          id={id}
          type="search"
          value={text}
          maxLength={MAX_QUERY_LENGTH}
          placeholder="Summaries and transcripts"
          autoComplete="off"
          enterKeyHint="search"
          onChange={(event) => {
            setText(event.target.value);
            schedule(event.target.value);
          }}
          className="pl-9"
        />
      </div>
    </form>
  );
}

/**
 * Calls from or to one number. Applied once it is a whole number (as the
 * database matches whole numbers); until then a hint says what is missing.
 */
export function NumberFilter({
  value,
  onChange,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  const id = useId();
  const [text, setText] = useFollowedText(value, (typed) => normalizeNumber(typed) === value);
  const [isIncomplete, setIsIncomplete] = useState(false);
  const apply = (typed: string) => {
    const trimmed = typed.trim();
    const number = normalizeNumber(trimmed);
    setIsIncomplete(trimmed !== '' && number === '');
    if (trimmed === '' && value !== '') onChange('');
    else if (number && number !== value) onChange(number);
  };
  const schedule = useDebounced(apply);
  const hintId = `${id}-hint`;
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink-900">
        Phone number
      </label>
      <Input
        id={id}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={text}
        placeholder="+14155550123"
        maxLength={30}
        aria-describedby={isIncomplete ? hintId : undefined}
        onChange={(event) => {
          setText(event.target.value);
          schedule(event.target.value);
        }}
        onBlur={() => apply(text)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply(text);
        }}
      />
      {isIncomplete ? (
        <p id={hintId} className="text-sm text-ink-600">
          Enter the whole number with its country code, such as +14155550123.
        </p>
      ) : null}
    </div>
  );
}
