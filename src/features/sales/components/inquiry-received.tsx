import { CalendarClock, Mail, MessageSquareReply } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import type { InquiryReceipt } from '../api/submit-inquiry';
import type { InquiryValues } from '../model/inquiry';

/** What happens next, with a slot to book right away (the booking form starts filled in). */
export function InquiryReceived({
  receipt,
  values,
}: {
  receipt: InquiryReceipt;
  values: InquiryValues;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const firstName = values.fullName.trim().split(/\s+/)[0];
  const steps = [
    {
      icon: Mail,
      title: 'Check your inbox',
      text: `We sent a confirmation to ${receipt.email}. Your reference is ${receipt.reference}.`,
    },
    {
      icon: MessageSquareReply,
      title: 'We reply within one business day',
      text: `A customer success specialist reads your message and answers with next steps for ${values.company.trim()}.`,
    },
    {
      icon: CalendarClock,
      title: 'Or pick a time now',
      text: 'Book a 30-minute demo and see Cervana answer calls like yours.',
    },
  ];
  return (
    <section aria-labelledby="inquiry-received-heading" className="grid gap-6">
      <h2
        id="inquiry-received-heading"
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none"
      >
        Thanks, {firstName}. Your message is with our sales team.
      </h2>
      <ol className="grid gap-4">
        {steps.map((step, index) => (
          <li
            key={step.title}
            className="flex gap-4 rounded-xl border border-sand-200 bg-sand-50 p-4"
          >
            <step.icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-azure-700" />
            <div>
              <p className="font-semibold text-ink-900">
                {index + 1}. {step.title}
              </p>
              <p className="mt-1 text-ink-600">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Link
          to={paths.demo}
          state={{
            prefill: {
              fullName: values.fullName.trim(),
              email: values.email.trim(),
              company: values.company.trim(),
              teamSize: values.teamSize,
            },
          }}
          className={buttonStyles({ size: 'lg' })}
        >
          Book a demo slot now
        </Link>
        <Link to={paths.home} className={buttonStyles({ size: 'lg', variant: 'secondary' })}>
          Back to the home page
        </Link>
      </div>
    </section>
  );
}
