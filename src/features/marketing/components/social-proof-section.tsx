import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { socialProof } from '../content/social-proof';

export default function SocialProofSection() {
  return (
    <section aria-labelledby="social-proof-heading" className="bg-white pb-20 sm:pb-28">
      <Container>
        <SectionHeading
          id="social-proof-heading"
          eyebrow={socialProof.eyebrow}
          heading={socialProof.heading}
          align="center"
        />
        <dl className="mt-12 grid gap-px overflow-hidden rounded-3xl bg-sand-200 ring-1 ring-sand-200 sm:grid-cols-2 lg:grid-cols-4">
          {socialProof.metrics.map((metric) => (
            <div key={metric.label} className="flex flex-col bg-white p-7">
              <dt className="order-2 mt-2 font-medium text-ink-700">{metric.label}</dt>
              <dd className="order-1 text-4xl font-bold tracking-tight text-ink-900 tabular-nums">
                {metric.value}
              </dd>
              <dd className="order-3 mt-4 text-sm text-sand-700">
                Source: {metric.source}, {metric.date}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mx-auto mt-6 max-w-3xl text-center text-sm text-sand-700">
          {socialProof.disclaimer}
        </p>
      </Container>
    </section>
  );
}
