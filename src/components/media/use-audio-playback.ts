import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type RefObject,
  type SyntheticEvent,
} from 'react';

export interface AudioPlayback {
  /** Spread onto the <audio> element. */
  audioProps: {
    ref: RefObject<HTMLAudioElement | null>;
    onPlay: () => void;
    onPause: () => void;
    onEnded: () => void;
    onTimeUpdate: (event: SyntheticEvent<HTMLAudioElement>) => void;
    onLoadedMetadata: (event: SyntheticEvent<HTMLAudioElement>) => void;
  };
  isPlaying: boolean;
  /** Seconds from the start. */
  time: number;
  duration: number;
  rate: number;
  toggle: () => void;
  seek: (seconds: number) => void;
  /** Seeks, then plays if it was not playing. */
  playFrom: (seconds: number) => void;
  setRate: (rate: number) => void;
}

/**
 * The state of one <audio> element: playing or not, where, how fast. The
 * position is followed per frame while it plays (timeupdate fires only a few
 * times a second), so a transcript can highlight in step.
 *
 * `beforePlay` may return a promise to wait for before playing (say, while
 * the element gets a fresh signed URL); it returns nothing when play can start
 * at once, which keeps play() inside the click that asked for it, as strict
 * browsers require.
 */
export function useAudioPlayback({
  initialDuration,
  beforePlay,
}: {
  initialDuration: number;
  beforePlay?: (element: HTMLAudioElement) => Promise<void> | undefined;
}): AudioPlayback {
  const ref = useRef<HTMLAudioElement>(null);
  const [isPlaying, setIsPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(initialDuration);
  const [rate, setRateState] = useState(1);

  useEffect(() => {
    if (!isPlaying) return;
    let frame = requestAnimationFrame(function follow() {
      if (ref.current) setTime(ref.current.currentTime);
      frame = requestAnimationFrame(follow);
    });
    return () => cancelAnimationFrame(frame);
  }, [isPlaying]);

  const play = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    // jsdom's play() returns nothing; browsers return a promise.
    const start = () => void element.play()?.catch(() => setIsPlaying(false));
    const waiting = beforePlay?.(element);
    if (waiting) void waiting.then(start, () => setIsPlaying(false));
    else start();
  }, [beforePlay]);

  const toggle = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    if (element.paused) play();
    else element.pause();
  }, [play]);

  const seek = useCallback((seconds: number) => {
    const element = ref.current;
    if (!element) return;
    element.currentTime = seconds;
    setTime(seconds);
  }, []);

  const playFrom = useCallback(
    (seconds: number) => {
      seek(seconds);
      if (ref.current?.paused) play();
    },
    [seek, play],
  );

  const setRate = useCallback((next: number) => {
    const element = ref.current;
    if (element) {
      // The default rate survives the element loading a new source.
      element.defaultPlaybackRate = next;
      element.playbackRate = next;
    }
    setRateState(next);
  }, []);

  return {
    audioProps: {
      ref,
      onPlay: () => setIsPlaying(true),
      onPause: () => setIsPlaying(false),
      onEnded: () => setIsPlaying(false),
      onTimeUpdate: (event) => setTime(event.currentTarget.currentTime),
      onLoadedMetadata: (event) => {
        if (Number.isFinite(event.currentTarget.duration))
          setDuration(event.currentTarget.duration);
      },
    },
    isPlaying,
    time,
    duration,
    rate,
    toggle,
    seek,
    playFrom,
    setRate,
  };
}
