import { Check, Minus, X } from 'lucide-react';
import { Container } from '@/components/ui/container';
import { SectionHeading } from '@/components/ui/section-heading';
import { whyCervana, type ComparisonValue } from '../content/why-cervana';

function ComparisonCell({ value }: { value: ComparisonValue }) {
  if (value === 'yes')
    return (
      <>
        <Check aria-hidden="true" className="mx-auto size-5 text-mint-600" />
        <span className="sr-only">Yes</span>
      </>
    );
  if (value === 'partly')
    return (
      <>
        <Minus aria-hidden="true" className="mx-auto size-5 text-sand-700" />
        <span className="sr-only">Partly</span>
      </>
    );
  if (value === 'no')
    return (
      <>
        <X aria-hidden="true" className="mx-auto size-5 text-sand-500" />
        <span className="sr-only">No</span>
      </>
    );
  return <span className="text-sm font-medium">{value}</span>;
}

const columns = ['cervana', 'hiring', 'ivr', 'outsourcing'] as const;

export default function WhyCervanaSection() {
  return (
    <section aria-labelledby="why-cervana-heading" className="bg-sand-50 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="why-cervana-heading"
          eyebrow={whyCervana.eyebrow}
          heading={whyCervana.heading}
          lead={whyCervana.lead}
        />
        <p className="mt-10 text-sm text-sand-700 md:hidden">
          Scroll the table sideways to compare all four options.
        </p>
        <div
          tabIndex={0}
          role="region"
          aria-label="Comparison of Cervana with the alternatives"
          className="relative mt-3 overflow-x-auto rounded-3xl bg-white ring-1 ring-sand-200 md:mt-12"
        >
          <table className="w-full min-w-[44rem] border-collapse text-left">
            <caption className="sr-only">
              How Cervana compares with hiring, phone menus and outsourcing
            </caption>
            <thead>
              <tr className="border-b border-sand-200">
                <th scope="col" className="p-5 text-sm font-semibold text-ink-600">
                  <span className="sr-only">Capability</span>
                </th>
                {columns.map((column) => (
                  <th
                    key={column}
                    scope="col"
                    className={
                      column === 'cervana'
                        ? 'bg-ink-900 p-5 text-center text-sm font-semibold text-white'
                        : 'p-5 text-center text-sm font-semibold text-ink-700'
                    }
                  >
                    {whyCervana.columns[column]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {whyCervana.comparison.map((row) => (
                <tr key={row.label} className="border-b border-sand-200 last:border-0">
                  <th scope="row" className="p-5 text-sm font-medium text-ink-900">
                    {row.label}
                  </th>
                  {columns.map((column) => (
                    <td
                      key={column}
                      className={
                        column === 'cervana'
                          ? 'bg-ink-900/[0.03] p-5 text-center text-ink-900'
                          : 'p-5 text-center text-ink-700'
                      }
                    >
                      <ComparisonCell value={row[column]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-16 grid gap-12 lg:grid-cols-2">
          <div>
            <h3 className="text-2xl font-bold tracking-tight text-ink-900">
              {whyCervana.trustHeading}
            </h3>
            <ul className="mt-6 grid gap-5 sm:grid-cols-2">
              {whyCervana.trustPoints.map((point) => (
                <li key={point.title} className="rounded-2xl bg-white p-5 ring-1 ring-sand-200">
                  <h4 className="font-semibold text-ink-900">{point.title}</h4>
                  <p className="mt-2 text-sm text-ink-600">{point.text}</p>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="text-2xl font-bold tracking-tight text-ink-900">
              {whyCervana.faqHeading}
            </h3>
            <div className="mt-6 divide-y divide-sand-200 rounded-2xl bg-white ring-1 ring-sand-200">
              {whyCervana.faq.map((item) => (
                <details key={item.question} className="group p-5">
                  <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-ink-900 [&::-webkit-details-marker]:hidden">
                    {item.question}
                    <span
                      aria-hidden="true"
                      className="text-xl text-azure-700 transition-transform group-open:rotate-45"
                    >
                      +
                    </span>
                  </summary>
                  <p className="mt-3 text-ink-600">{item.answer}</p>
                </details>
              ))}
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
