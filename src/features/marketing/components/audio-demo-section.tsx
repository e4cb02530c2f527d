import { useState } from 'react';
import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { cn } from '@/lib/cn';
import { demoCalls } from '../audio/demo-calls.generated';
import { audioDemo, featuredDemoCall } from '../content/audio-demo';
import { AudioPlayer, type AudioSources } from './audio-player';

const audioFiles = import.meta.glob<string>('../audio/*.{opus,mp3}', {
  query: '?url',
  import: 'default',
  eager: true,
});

function sourcesFor(id: string): AudioSources {
  return { opus: audioFiles[`../audio/${id}.opus`], mp3: audioFiles[`../audio/${id}.mp3`] };
}

export default function AudioDemoSection() {
  const [selected, setSelected] = useState(featuredDemoCall.id);
  const call = demoCalls.find((candidate) => candidate.id === selected) ?? featuredDemoCall;
  return (
    <section aria-labelledby="audio-demo-heading" className="bg-ink-900 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="audio-demo-heading"
          tone="dark"
          eyebrow={audioDemo.eyebrow}
          heading={audioDemo.heading}
          lead={audioDemo.lead}
        />
        <div role="group" aria-label={audioDemo.chooseLabel} className="mt-10 flex flex-wrap gap-3">
          {demoCalls.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              aria-pressed={candidate.id === call.id}
              onClick={() => setSelected(candidate.id)}
              className={cn(
                'rounded-full px-4 py-2 text-sm font-semibold ring-1 transition-colors',
                candidate.id === call.id
                  ? 'bg-white text-ink-900 ring-white'
                  : 'text-ink-100 ring-white/25 hover:bg-white/10',
              )}
            >
              {audioDemo.outcomeLabels[candidate.outcome]}
            </button>
          ))}
        </div>
        <div className="mt-8">
          <AudioPlayer key={call.id} call={call} sources={sourcesFor(call.id)} />
        </div>
        <p className="mt-6 text-sm text-ink-300">{audioDemo.note}</p>
      </Container>
    </section>
  );
}
