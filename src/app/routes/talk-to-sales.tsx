import { Clock, PhoneCall, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { PageIntro } from '@/components/layout/page-intro';
import { site } from '@/config/site';
import type { InquiryReceipt } from '@/features/sales/api/submit-inquiry';
import { InquiryReceived } from '@/features/sales/components/inquiry-received';
import { SalesInquiryForm } from '@/features/sales/components/sales-inquiry-form';
import type { InquiryValues } from '@/features/sales/model/inquiry';

const PROMISES = [
  { icon: Clock, text: 'A reply from a specialist within one business day' },
  { icon: PhoneCall, text: 'A plan for your call types, volumes and hand-off rules' },
  { icon: ShieldCheck, text: 'Your details used only to answer you; never sold' },
];

export default function TalkToSalesPage() {
  const [sent, setSent] = useState<{ receipt: InquiryReceipt; values: InquiryValues }>();
  return (
    <main>
      <PageIntro eyebrow="Talk to Sales" title="Talk to our sales team">
        <p>
          Tell us about your customer success team and we will come back within one business day.
        </p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-10 px-6 pb-24 lg:grid-cols-[1fr_2fr]">
        <aside className="grid content-start gap-4">
          <h2 className="text-lg font-semibold text-ink-900">What you get</h2>
          <ul className="grid gap-3">
            {PROMISES.map((promise) => (
              <li key={promise.text} className="flex gap-3 text-ink-700">
                <promise.icon
                  aria-hidden="true"
                  className="mt-0.5 size-5 shrink-0 text-azure-700"
                />
                {promise.text}
              </li>
            ))}
          </ul>
          <p className="text-sm text-ink-600">
            Prefer email? Write to{' '}
            <a
              className="font-semibold text-azure-700 underline"
              href={`mailto:${site.salesEmail}`}
            >
              {site.salesEmail}
            </a>
            .
          </p>
        </aside>
        <div className="rounded-2xl border border-sand-200 bg-white p-6 shadow-sm sm:p-8">
          {sent ? (
            <InquiryReceived receipt={sent.receipt} values={sent.values} />
          ) : (
            <SalesInquiryForm onSubmitted={(receipt, values) => setSent({ receipt, values })} />
          )}
        </div>
      </div>
    </main>
  );
}
