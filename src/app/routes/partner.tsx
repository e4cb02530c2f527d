import { Handshake } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageIntro } from '@/components/layout/page-intro';
import {
  describeCommission,
  describeThreshold,
  partnerTerms,
  partnerTiers,
} from '@/config/partner-program';
import { ApplicationConfirmation } from '@/features/partners/components/application-confirmation';
import { EarningsEstimator } from '@/features/partners/components/earnings-estimator';
import { PartnerApplicationForm } from '@/features/partners/components/partner-application-form';
import { audiences, faq } from '@/features/partners/model/program';
import { useHydrated } from '@/lib/use-hydrated';

export default function PartnerPage() {
  const [params] = useSearchParams();
  // The prerendered page has no link; a confirmation link's token is read once in the browser.
  const confirmToken = useHydrated() ? params.get('confirm') : null;
  return (
    <main>
      <PageIntro eyebrow="Partners" title="Grow with the Cervana partner program">
        <p>
          Refer customer success teams to Cervana and earn {partnerTerms.earn}, at the tier your
          volume reaches.
        </p>
        <p className="mt-6">
          <a href="#apply" className="font-semibold text-azure-700 underline">
            Apply now
          </a>
        </p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-20 px-6 pb-24">
        {confirmToken !== null ? <ApplicationConfirmation token={confirmToken} /> : null}
        <section aria-labelledby="who-heading" className="grid gap-6">
          <h2 id="who-heading" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            Who it is for
          </h2>
          <ul className="grid gap-4 md:grid-cols-3">
            {audiences.map((audience) => (
              <li key={audience.title} className="rounded-2xl border border-sand-200 bg-white p-6">
                <Handshake aria-hidden="true" className="size-6 text-azure-700" />
                <h3 className="mt-3 font-semibold text-ink-900">{audience.title}</h3>
                <p className="mt-2 text-ink-600">{audience.text}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="tiers-heading" className="grid gap-6">
          <h2 id="tiers-heading" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            Tiers and commission rates
          </h2>
          {/* Phones: one card per tier, instead of a table to scroll sideways. */}
          <ul className="grid gap-3 md:hidden">
            {partnerTiers.map((tier) => (
              <li key={tier.name} className="rounded-2xl border border-sand-200 bg-white p-5">
                <p className="font-semibold text-ink-900">{tier.name}</p>
                <p className="mt-1 text-lg font-semibold text-ink-900">
                  {describeCommission(tier)}
                </p>
                <p className="mt-1 text-sm text-ink-600">{describeThreshold(tier, 'long')}</p>
                <p className="mt-2 text-ink-700">{tier.summary}</p>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-hidden rounded-2xl border border-sand-200 bg-white md:block">
            <table className="w-full text-left">
              <caption className="sr-only">
                Partner tiers, what qualifies and what each pays
              </caption>
              <thead className="bg-sand-100 text-sm text-ink-700">
                <tr>
                  <th scope="col" className="px-5 py-3">
                    Tier
                  </th>
                  <th scope="col" className="px-5 py-3">
                    New customers a year
                  </th>
                  <th scope="col" className="px-5 py-3">
                    Commission
                  </th>
                  <th scope="col" className="px-5 py-3">
                    What you get
                  </th>
                </tr>
              </thead>
              <tbody>
                {partnerTiers.map((tier) => (
                  <tr key={tier.name} className="border-t border-sand-200">
                    <th scope="row" className="px-5 py-4 font-semibold text-ink-900">
                      {tier.name}
                    </th>
                    <td className="px-5 py-4 text-ink-700 tabular-nums">
                      {describeThreshold(tier, 'short')}
                    </td>
                    <td className="px-5 py-4 font-semibold text-ink-900">
                      {describeCommission(tier)}
                    </td>
                    <td className="px-5 py-4 text-ink-700">{tier.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section aria-labelledby="estimator-heading" className="grid gap-6">
          <h2 id="estimator-heading" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            Estimate your earnings
          </h2>
          <EarningsEstimator />
        </section>
        <section aria-labelledby="faq-heading" className="grid gap-6">
          <h2 id="faq-heading" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            Questions partners ask
          </h2>
          <div className="grid gap-3">
            {faq.map((item) => (
              <details
                key={item.question}
                className="group rounded-xl border border-sand-200 bg-white p-5"
              >
                <summary className="cursor-pointer font-semibold text-ink-900">
                  {item.question}
                </summary>
                <p className="mt-3 text-ink-700">{item.answer}</p>
              </details>
            ))}
          </div>
        </section>
        <section
          id="apply"
          aria-labelledby="apply-heading"
          className="grid scroll-mt-24 gap-6 rounded-2xl border border-sand-200 bg-white p-6 shadow-sm sm:p-10"
        >
          <h2 id="apply-heading" className="text-2xl font-bold text-ink-900 sm:text-3xl">
            Apply to become a partner
          </h2>
          <PartnerApplicationForm />
        </section>
      </div>
    </main>
  );
}
