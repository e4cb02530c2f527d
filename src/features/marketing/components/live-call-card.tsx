import { CheckCircle2, PhoneCall } from 'lucide-react';
import { hero } from '../content/hero';

/** Bar heights of a speech-like waveform, in pixels. */
const waveform = [
  4, 8, 14, 22, 16, 9, 5, 12, 24, 30, 20, 11, 6, 4, 9, 18, 27, 21, 13, 7, 4, 6, 15, 25, 29, 17, 10,
  5, 8, 19, 23, 14, 7, 4, 10, 16,
];

/** A product moment: Cervana on a live call, drawn in HTML. */
export function LiveCallCard() {
  const call = hero.liveCall;
  return (
    <figure className="relative mx-auto w-full max-w-lg rounded-3xl bg-white p-5 text-left text-ink-900 shadow-2xl ring-1 shadow-black/30 ring-white/10 sm:p-6 xl:mx-0 xl:max-w-none">
      <figcaption className="sr-only">
        Example: Cervana resolving a billing question on a live call
      </figcaption>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <span className="relative flex size-10 items-center justify-center rounded-full bg-mint-400/20 text-mint-600">
            <span className="absolute inset-0 rounded-full bg-mint-400/30 motion-safe:animate-pulse-ring" />
            <PhoneCall aria-hidden="true" className="relative size-5" />
          </span>
          <div>
            <p className="text-sm font-semibold">{call.caller}</p>
            <p className="text-xs text-sand-700">{call.account}</p>
          </div>
        </div>
        <p className="rounded-full bg-ink-900 px-3 py-1 text-xs font-semibold text-white tabular-nums">
          <span className="text-mint-400">●</span> {call.status} · {call.elapsed}
        </p>
      </div>
      <div aria-hidden="true" className="mt-5 flex h-9 items-center justify-between">
        {waveform.map((height, index) => (
          <span
            key={index}
            className="w-[3px] rounded-full bg-azure-500"
            style={{ height: `${height}px`, opacity: index < 26 ? 1 : 0.3 }}
          />
        ))}
      </div>
      <ol className="mt-5 space-y-3">
        {call.transcript.map((line) => (
          <li
            key={line.text}
            className={
              line.speaker === 'Cervana'
                ? 'rounded-2xl rounded-tl-sm bg-azure-50 p-3 text-sm'
                : 'rounded-2xl rounded-tr-sm bg-sand-100 p-3 text-sm'
            }
          >
            <span className="block text-xs font-semibold text-sand-700">{line.speaker}</span>
            {line.text}
          </li>
        ))}
      </ol>
      <ul className="mt-4 flex flex-wrap gap-2">
        {call.tags.map((tag) => (
          <li
            key={tag}
            className="rounded-full bg-sand-100 px-2.5 py-1 text-xs font-medium text-ink-700"
          >
            {tag}
          </li>
        ))}
      </ul>
      <p className="mt-4 flex items-center gap-2 border-t border-sand-200 pt-4 text-sm font-medium text-mint-600">
        <CheckCircle2 aria-hidden="true" className="size-4 shrink-0" />
        {call.outcome}
      </p>
    </figure>
  );
}
