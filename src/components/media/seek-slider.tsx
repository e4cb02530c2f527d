import type { KeyboardEvent } from 'react';
import { describeDuration } from '@/lib/format-duration';

/** Seconds a key moves the position slider: arrows a few seconds, Page Up/Down more (WAI-ARIA slider). */
export const SEEK_STEP_SECONDS = 5;
export const SEEK_PAGE_SECONDS = 15;

/** Where a key moves the slider from `time`, or undefined for keys the slider leaves alone. */
export function seekTargetForKey(key: string, time: number, duration: number): number | undefined {
  const moves: Record<string, number> = {
    ArrowRight: time + SEEK_STEP_SECONDS,
    ArrowUp: time + SEEK_STEP_SECONDS,
    ArrowLeft: time - SEEK_STEP_SECONDS,
    ArrowDown: time - SEEK_STEP_SECONDS,
    PageUp: time + SEEK_PAGE_SECONDS,
    PageDown: time - SEEK_PAGE_SECONDS,
    Home: 0,
    End: duration,
  };
  const target = moves[key];
  return target === undefined ? undefined : Math.min(duration, Math.max(0, target));
}

/**
 * The position in a recording as a native range input, which screen readers
 * and touch already know. Keys take steps of seconds, not the fine 0.1 s step
 * the browser would use; the value is read out in words.
 */
export function SeekSlider({
  time,
  duration,
  onSeek,
  label,
  disabled,
  className,
}: {
  time: number;
  duration: number;
  onSeek: (seconds: number) => void;
  label: string;
  disabled?: boolean;
  className?: string;
}) {
  const position = Math.min(time, duration);

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = seekTargetForKey(event.key, position, duration);
    if (target === undefined) return;
    event.preventDefault();
    onSeek(target);
  }

  return (
    <input
      type="range"
      min={0}
      max={duration}
      step={0.1}
      value={position}
      disabled={disabled}
      onChange={(event) => onSeek(Number(event.target.value))}
      onKeyDown={handleKeyDown}
      aria-label={label}
      aria-valuetext={`${describeDuration(Math.floor(position))} of ${describeDuration(Math.floor(duration))}`}
      className={className}
    />
  );
}
