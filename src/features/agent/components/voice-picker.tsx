import { Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import { VOICES, type VoiceId } from '../model/voices';

/**
 * The voices as radio cards, each with its sample to hear. One sample plays
 * at a time; choosing a voice does not play it (a page should not start
 * talking on its own).
 */
export function VoicePicker({
  value,
  onChange,
  isDisabled,
  error,
}: {
  value: VoiceId;
  onChange: (voice: VoiceId) => void;
  isDisabled: boolean;
  error?: string;
}) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<VoiceId | null>(null);

  useEffect(() => () => audio.current?.pause(), []);

  const toggleSample = (voice: (typeof VOICES)[number]) => {
    if (playing === voice.id) {
      audio.current?.pause();
      setPlaying(null);
      return;
    }
    audio.current?.pause();
    const sample = new Audio(voice.sampleUrl);
    sample.addEventListener('ended', () => setPlaying(null));
    sample.addEventListener('error', () => setPlaying(null));
    audio.current = sample;
    setPlaying(voice.id);
    sample.play().catch(() => setPlaying(null));
  };

  return (
    <fieldset aria-describedby={error ? 'agent-voice-error' : undefined}>
      <legend className="text-sm font-semibold text-ink-900">Voice</legend>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {VOICES.map((voice) => {
          const isChosen = value === voice.id;
          return (
            <div
              key={voice.id}
              className={cn(
                'flex items-center gap-3 rounded-xl border p-3 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-azure-500',
                isChosen ? 'border-azure-700 bg-azure-50' : 'border-sand-200 bg-white',
              )}
            >
              <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-3">
                <input
                  type="radio"
                  name="voice"
                  value={voice.id}
                  checked={isChosen}
                  disabled={isDisabled}
                  onChange={() => onChange(voice.id)}
                  className="mt-1 size-4 accent-azure-700 focus-visible:outline-none"
                />
                <span className="min-w-0">
                  <span className="block font-semibold text-ink-900">{voice.name}</span>
                  <span className="block text-sm text-ink-600">{voice.description}</span>
                </span>
              </label>
              <button
                type="button"
                onClick={() => toggleSample(voice)}
                aria-pressed={playing === voice.id}
                className="inline-flex size-10 shrink-0 items-center justify-center rounded-full border border-sand-200 bg-white text-ink-800 hover:bg-sand-100"
              >
                {playing === voice.id ? (
                  <Pause aria-hidden="true" className="size-4" />
                ) : (
                  <Play aria-hidden="true" className="size-4" />
                )}
                <span className="sr-only">
                  {playing === voice.id ? `Stop ${voice.name}'s sample` : `Hear ${voice.name}`}
                </span>
              </button>
            </div>
          );
        })}
      </div>
      {error ? (
        <p id="agent-voice-error" className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
