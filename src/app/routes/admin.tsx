import { PageIntro } from '@/components/layout/page-intro';

export default function AdminPage() {
  return (
    <main>
      <PageIntro eyebrow="Admin" title="Cervana admin">
        <p>
          Leads, bookings, partners and users: the tools the Cervana team runs the business with.
        </p>
      </PageIntro>
    </main>
  );
}
