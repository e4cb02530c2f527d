import { Pause, Play } from 'lucide-react';
import { useRef } from 'react';
import { activeSpanIndex } from '@/components/media/active-segment';
import { SeekSlider } from '@/components/media/seek-slider';
import { useAudioPlayback } from '@/components/media/use-audio-playback';
import { useFollowActive } from '@/components/media/use-follow-active';
import { cn } from '@/lib/cn';
import { formatClock } from '@/lib/format-duration';
import type { DemoCall } from '../audio/demo-calls.generated';

export interface AudioSources {
  opus?: string;
  mp3?: string;
}

/**
 * Who speaks when: one bar per line, coloured by speaker, filled up to the
 * playing position. Decorative; the range input and transcript do the work.
 */
function CallTimeline({
  call,
  time,
  duration,
}: {
  call: DemoCall;
  time: number;
  duration: number;
}) {
  return (
    <div aria-hidden="true" className="mt-8">
      <div className="relative h-10">
        {call.lines.map((line, index) => {
          const played = Math.min(1, Math.max(0, (time - line.start) / (line.end - line.start)));
          const isAgent = line.speaker === 'agent';
          return (
            <div
              key={`${line.start}-${index}`}
              className={cn(
                'absolute overflow-hidden rounded-md',
                isAgent ? 'top-0 h-[18px] bg-azure-500/25' : 'bottom-0 h-[18px] bg-white/15',
              )}
              // Hundredths of a percent: sub-pixel, and 16-digit fractions would not compress in the HTML.
              style={{
                left: `${((line.start / duration) * 100).toFixed(2)}%`,
                width: `${(((line.end - line.start) / duration) * 100).toFixed(2)}%`,
              }}
            >
              <div
                className={cn('h-full origin-left', isAgent ? 'bg-azure-500' : 'bg-ink-100')}
                style={{ transform: `scaleX(${played})` }}
              />
            </div>
          );
        })}
      </div>
      <p className="mt-3 flex gap-4 text-xs text-ink-100">
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-azure-500" /> Cervana
        </span>
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-ink-100" /> Caller
        </span>
      </p>
    </div>
  );
}

/** Play, pause and seek; the transcript highlights the line being spoken and seeks when clicked. */
export function AudioPlayer({ call, sources }: { call: DemoCall; sources: AudioSources }) {
  const transcript = useRef<HTMLOListElement>(null);
  const { audioProps, isPlaying, time, duration, toggle, seek } = useAudioPlayback({
    initialDuration: call.durationSeconds,
  });
  const active = activeSpanIndex(call.lines, time);
  const { follow } = useFollowActive(transcript, active);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)]">
      <div className="flex flex-col rounded-3xl bg-white/5 p-6 ring-1 ring-white/10">
        <h3 className="text-xl font-semibold text-white">{call.title}</h3>
        <p className="mt-2 text-ink-100">{call.summary}</p>
        <audio {...audioProps} preload="none">
          {sources.opus ? <source src={sources.opus} type="audio/ogg; codecs=opus" /> : null}
          {sources.mp3 ? <source src={sources.mp3} type="audio/mpeg" /> : null}
        </audio>
        <CallTimeline call={call} time={time} duration={duration} />
        <div className="mt-auto flex items-center gap-4 pt-6">
          <button
            type="button"
            onClick={toggle}
            className="inline-flex size-14 shrink-0 items-center justify-center rounded-full bg-azure-500 text-ink-900 transition-colors hover:bg-azure-400"
          >
            {isPlaying ? (
              <Pause aria-hidden="true" className="size-6" />
            ) : (
              <Play aria-hidden="true" className="size-6 translate-x-0.5" />
            )}
            <span className="sr-only">{isPlaying ? 'Pause' : 'Play'} the call</span>
          </button>
          <div className="flex-1">
            <SeekSlider
              time={time}
              duration={duration}
              onSeek={seek}
              label="Position in the call"
              className="w-full accent-azure-500"
            />
            <p className="mt-1 flex justify-between text-sm text-ink-100 tabular-nums">
              <span data-testid="audio-time">{formatClock(time)}</span>
              <span>{formatClock(duration)}</span>
            </p>
          </div>
        </div>
      </div>
      <div className="rounded-3xl bg-white p-2 text-ink-900">
        <h4 className="px-4 pt-3 text-sm font-semibold text-ink-600">Transcript</h4>
        <ol
          ref={transcript}
          aria-label={`Transcript of ${call.title}`}
          className="relative max-h-80 space-y-1 overflow-y-auto p-2 sm:max-h-96"
        >
          {call.lines.map((line, index) => (
            <li key={`${line.start}-${index}`}>
              <button
                type="button"
                onClick={() => {
                  seek(line.start);
                  follow();
                }}
                aria-current={index === active ? 'true' : undefined}
                className={cn(
                  'w-full rounded-xl px-3 py-2 text-left transition-colors',
                  index === active ? 'bg-azure-50 ring-1 ring-azure-500' : 'hover:bg-sand-100',
                )}
              >
                <span className="flex items-baseline justify-between gap-3 text-xs font-semibold text-sand-700">
                  <span>{line.speaker === 'agent' ? 'Cervana' : 'Caller'}</span>
                  <span className="tabular-nums">{formatClock(line.start)}</span>
                </span>
                <span className="mt-0.5 block">{line.text}</span>
              </button>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
