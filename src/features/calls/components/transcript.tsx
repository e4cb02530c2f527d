import { memo, useRef } from 'react';
import { useFollowActive } from '@/components/media/use-follow-active';
import { cn } from '@/lib/cn';
import { formatClock } from '@/lib/format-duration';
import type { TranscriptSegment } from '../api/call-detail';
import { SPEAKER_LABELS } from '../model/call-labels';

function SegmentText({ segment }: { segment: TranscriptSegment }) {
  return (
    <>
      <span className="flex items-baseline justify-between gap-3 text-xs font-semibold">
        <span className={segment.speaker === 'agent' ? 'text-azure-700' : 'text-sand-700'}>
          {SPEAKER_LABELS[segment.speaker]}
        </span>
        <span className="text-sand-700 tabular-nums">{formatClock(segment.start_ms / 1000)}</span>
      </span>
      <span className="mt-0.5 block text-ink-900">{segment.text}</span>
    </>
  );
}

/**
 * The timed transcript. The line being spoken is highlighted and kept in view
 * while the reader is not reading elsewhere; with a recording, a line is a
 * button that plays the call from there.
 */
export const Transcript = memo(function Transcript({
  segments,
  activeIndex,
  onPlayFrom,
}: {
  segments: readonly TranscriptSegment[];
  activeIndex: number;
  /** Plays from a time in seconds; absent when there is nothing to play. */
  onPlayFrom?: (seconds: number) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  const { isFollowing, follow } = useFollowActive(list, activeIndex);

  return (
    <section
      aria-labelledby="transcript-heading"
      className="rounded-2xl border border-sand-200 bg-white p-2 sm:p-3"
    >
      <div className="flex min-h-10 flex-wrap items-center justify-between gap-2 px-3 pt-2">
        <h2 id="transcript-heading" className="text-lg font-semibold text-ink-900">
          Transcript
        </h2>
        {!isFollowing && activeIndex >= 0 ? (
          <button
            type="button"
            onClick={follow}
            className="rounded-lg px-3 py-1.5 text-sm font-semibold text-azure-700 hover:bg-azure-50"
          >
            Back to the current line
          </button>
        ) : null}
      </div>
      {segments.length === 0 ? (
        <p className="px-3 pt-2 pb-3 text-ink-600">No transcript for this call.</p>
      ) : (
        <ol
          ref={list}
          aria-label="Transcript lines"
          // Without buttons inside, the box itself takes focus so it scrolls by keyboard.
          tabIndex={onPlayFrom ? undefined : 0}
          className="mt-2 max-h-[28rem] space-y-1 overflow-y-auto p-1 lg:max-h-[max(16rem,calc(100dvh-26rem))]"
        >
          {segments.map((segment, index) => {
            const isActive = index === activeIndex;
            const styles = cn(
              'block w-full rounded-xl px-3 py-2 text-left',
              isActive ? 'bg-azure-50 ring-1 ring-azure-500' : onPlayFrom && 'hover:bg-sand-100',
            );
            return (
              <li key={`${segment.start_ms}-${index}`}>
                {onPlayFrom ? (
                  <button
                    type="button"
                    aria-current={isActive ? 'true' : undefined}
                    onClick={() => {
                      onPlayFrom(segment.start_ms / 1000);
                      follow();
                    }}
                    className={cn(styles, 'transition-colors')}
                  >
                    <SegmentText segment={segment} />
                  </button>
                ) : (
                  <div className={styles}>
                    <SegmentText segment={segment} />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
});
