import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { costSavings } from '../content/cost-savings';
import { RoiCalculator } from './roi-calculator';

export default function CostSavingsSection() {
  return (
    <section aria-labelledby="cost-savings-heading" className="bg-sand-50 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="cost-savings-heading"
          eyebrow={costSavings.eyebrow}
          heading={costSavings.heading}
          lead={costSavings.lead}
        />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {costSavings.problems.map((problem, index) => (
            <li key={problem.title} className="rounded-2xl bg-white p-6 ring-1 ring-sand-200">
              <p className="text-sm font-semibold text-azure-700 tabular-nums">0{index + 1}</p>
              <h3 className="mt-2 text-lg font-semibold text-ink-900">{problem.title}</h3>
              <p className="mt-2 text-ink-600">{problem.text}</p>
            </li>
          ))}
        </ul>
        <RoiCalculator />
      </Container>
    </section>
  );
}
