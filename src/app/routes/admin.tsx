import { PortalPage } from '@/components/layout/portal-page';

export default function AdminPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Cervana admin"
      description={
        <p>
          Leads, bookings, partners and users: the tools the Cervana team runs the business with.
        </p>
      }
    >
      <section
        aria-labelledby="admin-overview-heading"
        className="rounded-2xl border border-sand-200 bg-white p-6"
      >
        <h2 id="admin-overview-heading" className="text-lg font-semibold text-ink-900">
          Overview
        </h2>
        <p className="mt-2 text-ink-600">
          New leads, demo bookings and partner applications will be listed here as they arrive.
        </p>
      </section>
    </PortalPage>
  );
}
