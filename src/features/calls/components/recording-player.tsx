import { Pause, Play } from 'lucide-react';
import type { SyntheticEvent } from 'react';
import { SeekSlider } from '@/components/media/seek-slider';
import type { AudioPlayback } from '@/components/media/use-audio-playback';
import { cn } from '@/lib/cn';
import { formatClock } from '@/lib/format-duration';

export const PLAYBACK_RATES = [1, 1.5, 2] as const;

/**
 * Play and pause, the position (a slider: arrows move 5 s, Page keys 15 s,
 * Home and End), the time played and the length, and the speed. The <audio>
 * element has no source of its own: the caller gives it one through `playback`.
 */
export function RecordingPlayer({
  playback,
  onAudioError,
}: {
  playback: AudioPlayback;
  onAudioError?: (event: SyntheticEvent<HTMLAudioElement>) => void;
}) {
  const { audioProps, isPlaying, time, duration, rate, toggle, seek, setRate } = playback;
  return (
    <div>
      <audio {...audioProps} preload="metadata" onError={onAudioError} />
      <div className="flex items-center gap-4">
        <button
          type="button"
          onClick={toggle}
          className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-azure-700 text-white shadow-sm transition-colors hover:bg-azure-800"
        >
          {isPlaying ? (
            <Pause aria-hidden="true" className="size-5" />
          ) : (
            <Play aria-hidden="true" className="size-5 translate-x-0.5" />
          )}
          <span className="sr-only">{isPlaying ? 'Pause' : 'Play'} the recording</span>
        </button>
        <div className="min-w-0 flex-1">
          <SeekSlider
            time={time}
            duration={duration}
            onSeek={seek}
            label="Position in the recording"
            className="w-full accent-azure-700"
          />
          <p className="mt-1 flex justify-between text-sm text-ink-600 tabular-nums">
            <span data-testid="recording-time">{formatClock(time)}</span>
            <span data-testid="recording-duration">{formatClock(duration)}</span>
          </p>
        </div>
      </div>
      <div
        role="group"
        aria-labelledby="playback-speed-label"
        className="mt-4 flex items-center gap-2"
      >
        <span id="playback-speed-label" className="mr-1 text-sm text-ink-600">
          Speed
        </span>
        {PLAYBACK_RATES.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={rate === option}
            onClick={() => setRate(option)}
            className={cn(
              'min-w-12 rounded-lg px-2.5 py-1.5 text-sm font-semibold tabular-nums ring-1 ring-inset transition-colors',
              rate === option
                ? 'bg-ink-900 text-white ring-ink-900'
                : 'bg-white text-ink-800 ring-sand-200 hover:bg-sand-100',
            )}
          >
            {option}×
          </button>
        ))}
      </div>
    </div>
  );
}
