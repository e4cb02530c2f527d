import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageIntro } from '@/components/layout/page-intro';
import { privacyPolicy } from '../content';
import type { DataFlow, PolicyContact, PolicySection } from '../content';

/** The section the contact details belong under. */
const CONTACT_SECTION_ID = 'contact';

const linkStyles =
  'font-medium text-azure-700 underline decoration-azure-700/40 underline-offset-4 hover:decoration-azure-700';

/** "2026-11-21" -> "November 21, 2026", the same in every time zone. */
function formatDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

/** Plain text, with every mention of the privacy email turned into a mailto link. */
function WithEmailLinks({ text }: { text: string }) {
  const { email } = privacyPolicy.contact;
  const parts = text.split(email);
  return parts.map((part, index) => (
    <span key={index}>
      {part}
      {index < parts.length - 1 ? (
        <a href={`mailto:${email}`} className={linkStyles}>
          {email}
        </a>
      ) : null}
    </span>
  ));
}

/** A list item "Term: the rest" shows the term in bold; other items stay plain. */
function ListItemText({ text }: { text: string }) {
  const colon = text.indexOf(': ');
  const term = colon > 0 ? text.slice(0, colon) : '';
  if (!term || term.length > 100 || term.includes('.')) return <WithEmailLinks text={text} />;
  return (
    <>
      <strong className="font-semibold text-ink-900">{term}:</strong>{' '}
      <WithEmailLinks text={text.slice(colon + 2)} />
    </>
  );
}

function Paragraphs({ paragraphs }: { paragraphs: string[] }) {
  return paragraphs.map((paragraph) => (
    <p key={paragraph}>
      <WithEmailLinks text={paragraph} />
    </p>
  ));
}

function InShort({ points }: { points: string[] }) {
  return (
    <section
      aria-labelledby="in-short"
      className="rounded-2xl border border-azure-100 border-l-4 border-l-azure-500 bg-azure-50 p-6 sm:p-8"
    >
      <h2 id="in-short" className="text-lg font-semibold text-ink-900">
        In short
      </h2>
      <ul className="mt-4 space-y-3 text-ink-800">
        {points.map((point) => (
          <li key={point} className="flex gap-3">
            <Check aria-hidden="true" className="mt-1 size-5 shrink-0 text-mint-600" />
            <span>
              <WithEmailLinks text={point} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * One path through the system as numbered, connected steps: a vertical line
 * on phones, a horizontal one on wide screens.
 */
function DataFlowSteps({ flow, id }: { flow: DataFlow; id: string }) {
  const last = flow.steps.length - 1;
  return (
    <section className="rounded-2xl border border-sand-200 bg-white p-6 sm:p-8">
      <h2 id={id} className="text-lg font-semibold text-ink-900">
        {flow.title}
      </h2>
      {/* role="list" keeps list semantics in Safari, which drops them without list markers. */}
      <ol
        role="list"
        aria-labelledby={id}
        className="mt-6 flex flex-col gap-6 lg:flex-row lg:gap-4"
      >
        {flow.steps.map((step, index) => (
          <li key={step.label} className="relative flex gap-4 lg:flex-1 lg:flex-col lg:gap-3">
            {index < last ? (
              <span
                aria-hidden="true"
                className="absolute top-10 -bottom-6 left-5 w-0.5 -translate-x-1/2 bg-azure-400 lg:top-5 lg:-right-4 lg:bottom-auto lg:left-10 lg:h-0.5 lg:w-auto lg:translate-x-0 lg:-translate-y-1/2"
              />
            ) : null}
            <span
              aria-hidden="true"
              className="relative flex size-10 shrink-0 items-center justify-center rounded-full border-2 border-azure-500 bg-white text-sm font-bold text-azure-700"
            >
              {index + 1}
            </span>
            <div className="pt-2 lg:pt-0 lg:pr-2">
              <p className="font-semibold text-ink-900">{step.label}</p>
              <p className="mt-1 text-sm leading-6 text-ink-600">{step.description}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function TableOfContents({ sections }: { sections: PolicySection[] }) {
  return (
    <nav
      aria-label="On this page"
      className="rounded-2xl border border-sand-200 bg-white p-6 sm:p-8"
    >
      {/* The nav's label already says this to screen readers. */}
      <p aria-hidden="true" className="text-sm font-semibold tracking-wide text-ink-600 uppercase">
        On this page
      </p>
      <ol className="mt-4 list-decimal space-y-2 pl-5 text-ink-600 marker:text-sm sm:columns-2 sm:gap-10">
        {sections.map((section) => (
          <li key={section.id} className="break-inside-avoid pl-1">
            <a href={`#${section.id}`} className={linkStyles}>
              {section.heading}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function ContactDetails({ contact }: { contact: PolicyContact }) {
  return (
    <address className="mt-6 grid gap-6 rounded-2xl border border-sand-200 bg-white p-6 not-italic sm:grid-cols-2 sm:p-8">
      <div>
        <p className="text-sm font-semibold tracking-wide text-ink-600 uppercase">Email</p>
        <p className="mt-2">
          <a href={`mailto:${contact.email}`} className={linkStyles}>
            {contact.email}
          </a>
        </p>
      </div>
      <div>
        <p className="text-sm font-semibold tracking-wide text-ink-600 uppercase">Post</p>
        <p className="mt-2 whitespace-pre-line text-ink-800">{contact.postal}</p>
      </div>
    </address>
  );
}

function PolicySectionBlock({
  section,
  children,
}: {
  section: PolicySection;
  children?: ReactNode;
}) {
  return (
    <section className="border-t border-sand-200 pt-10 first:border-t-0 first:pt-0">
      <h2
        id={section.id}
        className="scroll-mt-24 text-2xl font-bold tracking-tight text-balance text-ink-900"
      >
        {section.heading}
      </h2>
      <div className="mt-5 space-y-4 leading-7 text-ink-700">
        <Paragraphs paragraphs={section.paragraphs} />
        {section.list ? (
          <ul className="list-disc space-y-3 pl-5 marker:text-azure-500">
            {section.list.map((item) => (
              <li key={item} className="pl-1">
                <ListItemText text={item} />
              </li>
            ))}
          </ul>
        ) : null}
        {section.afterList ? <Paragraphs paragraphs={section.afterList} /> : null}
      </div>
      {children}
    </section>
  );
}

/** The privacy policy page: summary, data flows, contents, then every section. */
export function PrivacyPolicy() {
  const { title, intro, lastUpdated, summary, dataFlow, websiteDataFlow, sections, contact } =
    privacyPolicy;
  const hasContactSection = sections.some((section) => section.id === CONTACT_SECTION_ID);

  return (
    <main className="pb-24">
      <PageIntro eyebrow="Legal" title={title}>
        <p>{intro}</p>
        <p className="mt-4 text-base text-ink-600">
          Last updated <time dateTime={lastUpdated}>{formatDate(lastUpdated)}</time>
        </p>
      </PageIntro>

      <div className="mx-auto max-w-[70ch] px-6">
        <InShort points={summary} />
      </div>

      <div className="mx-auto mt-12 grid max-w-6xl gap-6 px-6">
        <DataFlowSteps flow={dataFlow} id="data-flow-calls" />
        <DataFlowSteps flow={websiteDataFlow} id="data-flow-website" />
      </div>

      <div className="mx-auto mt-12 max-w-[70ch] px-6">
        <TableOfContents sections={sections} />

        <div className="mt-16 space-y-10">
          {sections.map((section) => (
            <PolicySectionBlock key={section.id} section={section}>
              {section.id === CONTACT_SECTION_ID ? <ContactDetails contact={contact} /> : null}
            </PolicySectionBlock>
          ))}
        </div>

        {hasContactSection ? null : <ContactDetails contact={contact} />}
      </div>
    </main>
  );
}
