import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FileAudio } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type SyntheticEvent } from 'react';
import { activeSpanIndex } from '@/components/media/active-segment';
import { useAudioPlayback } from '@/components/media/use-audio-playback';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { CallDetail } from '../api/call-detail';
import { isExpiring, recordingUrlQuery, type RecordingUrl } from '../api/recording-url';
import { RecordingPlayer } from './recording-player';
import { Transcript } from './transcript';

/** An error this soon after loading a fresh URL is not an expired one: give up and say so. */
const FRESH_URL_MS = 15_000;

/** Gives the element a source, keeping its position (and playing on when asked). */
function loadSource(element: HTMLAudioElement, url: string, resumeAt: number, shouldPlay: boolean) {
  element.src = url;
  // Before the new source's metadata arrives this is where it will start.
  if (resumeAt > 0) element.currentTime = resumeAt;
  if (shouldPlay) void element.play()?.catch(() => undefined);
}

function NoRecording() {
  return (
    <p className="flex items-center gap-3 rounded-xl bg-sand-100 px-4 py-3 text-ink-700">
      <FileAudio aria-hidden="true" className="size-5 shrink-0 text-sand-700" />
      No recording for this call.
    </p>
  );
}

/**
 * The recording and the transcript, which follow one another: the transcript
 * highlights what is being said, and a line clicked plays from there. The
 * recording's signed URL lives an hour; it is renewed before playing when it
 * has run out, and when the browser's request with it fails.
 */
export function CallDetailMedia({ call }: { call: CallDetail }) {
  const path = call.recording_path;
  const queryClient = useQueryClient();
  const recording = useQuery({ ...recordingUrlQuery(path ?? ''), enabled: path !== null });
  const playing = useRef<{ url: RecordingUrl; loadedAt: number } | null>(null);
  const [hasFailed, setHasFailed] = useState(false);

  const renew = useCallback(async (): Promise<RecordingUrl | null> => {
    if (path === null) return null;
    return queryClient.fetchQuery({ ...recordingUrlQuery(path), staleTime: 0 });
  }, [path, queryClient]);

  const load = useCallback(
    (element: HTMLAudioElement, url: RecordingUrl, resumeAt: number, shouldPlay: boolean) => {
      playing.current = { url, loadedAt: Date.now() };
      loadSource(element, url.url, resumeAt, shouldPlay);
    },
    [],
  );

  const beforePlay = useCallback(
    (element: HTMLAudioElement) => {
      const current = playing.current;
      if (!current || !isExpiring(current.url)) return undefined;
      const resumeAt = element.currentTime;
      return renew().then((fresh) => {
        if (!fresh) throw new Error('The recording is no longer there.');
        load(element, fresh, resumeAt, false);
      });
    },
    [renew, load],
  );

  const playback = useAudioPlayback({ initialDuration: call.duration_seconds, beforePlay });
  const audio = playback.audioProps.ref;
  const spans = useMemo(
    () =>
      call.transcript.map((segment) => ({
        start: segment.start_ms / 1000,
        end: segment.end_ms / 1000,
      })),
    [call.transcript],
  );
  const activeIndex = recording.data ? activeSpanIndex(spans, playback.time) : -1;

  // The first URL: given to the element once it is there (it keeps it until it fails).
  useEffect(() => {
    const element = audio.current;
    if (recording.data && element && !element.getAttribute('src')) {
      load(element, recording.data, 0, false);
    }
  }, [recording.data, audio, load]);

  async function retry(element: HTMLAudioElement, shouldPlay: boolean) {
    const resumeAt = element.currentTime;
    try {
      const fresh = await renew();
      setHasFailed(false);
      if (fresh) load(element, fresh, resumeAt, shouldPlay);
    } catch {
      setHasFailed(true);
    }
  }

  function handleAudioError(event: SyntheticEvent<HTMLAudioElement>) {
    const element = event.currentTarget;
    const current = playing.current;
    if (!current) return;
    if (Date.now() - current.loadedAt < FRESH_URL_MS) {
      setHasFailed(true);
      return;
    }
    // Most likely the URL ran out while the page was open: renew it and go on.
    void retry(element, !element.paused || playback.isPlaying);
  }

  let body;
  if (path === null || recording.data === null) body = <NoRecording />;
  else if (recording.data === undefined)
    body = recording.isError ? (
      <Alert tone="error" title="The recording could not be loaded.">
        <p>Check your connection, then try again.</p>
        <Button variant="secondary" className="mt-3" onClick={() => void recording.refetch()}>
          Try again
        </Button>
      </Alert>
    ) : (
      <div role="status" className="flex h-[6.5rem] items-center text-ink-600">
        Loading the recording...
      </div>
    );
  else
    body = (
      <>
        {hasFailed ? (
          <Alert tone="error" title="The recording could not be played." className="mb-4">
            <Button
              variant="secondary"
              className="mt-2"
              onClick={() => audio.current && void retry(audio.current, false)}
            >
              Try again
            </Button>
          </Alert>
        ) : null}
        <RecordingPlayer playback={playback} onAudioError={handleAudioError} />
      </>
    );

  return (
    <>
      <section
        aria-labelledby="recording-heading"
        className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
      >
        <h2 id="recording-heading" className="mb-4 text-lg font-semibold text-ink-900">
          Recording
        </h2>
        {body}
      </section>
      <Transcript
        segments={call.transcript}
        activeIndex={activeIndex}
        onPlayFrom={recording.data ? playback.playFrom : undefined}
      />
    </>
  );
}
