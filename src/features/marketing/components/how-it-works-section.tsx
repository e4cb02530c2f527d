import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { howItWorks } from '../content/how-it-works';

export default function HowItWorksSection() {
  return (
    <section aria-labelledby="how-it-works-heading" className="bg-white py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="how-it-works-heading"
          eyebrow={howItWorks.eyebrow}
          heading={howItWorks.heading}
          lead={howItWorks.lead}
        />
        <ol className="relative mt-14 grid gap-6 md:grid-cols-2 xl:grid-cols-4">
          <div
            aria-hidden="true"
            className="absolute top-6 right-[12%] left-[12%] hidden h-px bg-gradient-to-r from-azure-100 via-azure-500/40 to-azure-100 xl:block"
          />
          {howItWorks.steps.map((step, index) => (
            <li
              key={step.title}
              className="relative flex flex-col rounded-2xl bg-sand-50 p-6 ring-1 ring-sand-200"
            >
              <span className="flex size-12 items-center justify-center rounded-full bg-ink-900 text-lg font-bold text-white ring-8 ring-white">
                {index + 1}
              </span>
              <h3 className="mt-5 text-lg font-semibold text-ink-900">{step.title}</h3>
              <p className="mt-2 flex-1 text-ink-600">{step.text}</p>
              <p className="mt-5 text-sm font-medium text-mint-600">{step.detail}</p>
            </li>
          ))}
        </ol>
      </Container>
    </section>
  );
}
