import * as Tabs from '@radix-ui/react-tabs';
import { ArrowRight, CheckCircle2, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { industries, industriesContent } from '../content/industries';

/** Choosing an industry shows its example calls (tabs: arrow keys move between them). */
export default function IndustriesSection() {
  const [selected, setSelected] = useState(industries[0]!.id);
  return (
    <section aria-labelledby="industries-heading" className="bg-sand-100 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="industries-heading"
          eyebrow={industriesContent.eyebrow}
          heading={industriesContent.heading}
          lead={industriesContent.lead}
        />
        <Tabs.Root value={selected} onValueChange={setSelected} className="mt-10">
          <Tabs.List
            aria-label="Industry"
            className="-mx-5 flex gap-2 overflow-x-auto px-5 pb-2 sm:mx-0 sm:flex-wrap sm:px-0"
          >
            {industries.map((industry) => (
              <Tabs.Trigger
                key={industry.id}
                value={industry.id}
                className="shrink-0 rounded-full bg-white px-4 py-2 text-sm font-semibold text-ink-700 ring-1 ring-sand-200 transition-colors hover:text-ink-900 data-[state=active]:bg-ink-900 data-[state=active]:text-white data-[state=active]:ring-ink-900"
              >
                {industry.name}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {industries.map((industry) => (
            <Tabs.Content key={industry.id} value={industry.id} className="mt-8">
              <p className="max-w-3xl text-lg text-ink-700">{industry.summary}</p>
              <ul className="mt-6 grid gap-5 lg:grid-cols-3">
                {industry.examples.map((example) => (
                  <li
                    key={example.request}
                    className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-sand-200"
                  >
                    <p className="flex items-center gap-2 text-sm text-sand-700">
                      <UserRound aria-hidden="true" className="size-4" />
                      {example.caller}
                    </p>
                    <h3 className="mt-3 text-lg font-semibold text-ink-900">“{example.request}”</h3>
                    <p className="mt-3 flex flex-1 gap-2 text-ink-600">
                      <ArrowRight
                        aria-hidden="true"
                        className="mt-1 size-4 shrink-0 text-azure-700"
                      />
                      {example.action}
                    </p>
                    <p
                      className={
                        example.outcome === 'Resolved'
                          ? 'mt-5 inline-flex items-center gap-1.5 self-start rounded-full bg-mint-400/15 px-3 py-1 text-sm font-semibold text-mint-600'
                          : 'mt-5 inline-flex items-center gap-1.5 self-start rounded-full bg-azure-50 px-3 py-1 text-sm font-semibold text-azure-800'
                      }
                    >
                      <CheckCircle2 aria-hidden="true" className="size-4" />
                      {example.outcome}
                    </p>
                  </li>
                ))}
              </ul>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Container>
    </section>
  );
}
