import { PortalPage } from '@/components/layout/portal-page';
import { BookingBrowser } from '@/features/admin/components/booking-browser';

/** /admin/bookings: every demo booked on /demo, upcoming and past. */
export default function AdminBookingsPage() {
  return (
    <PortalPage
      eyebrow="Admin"
      title="Demo bookings"
      description={<p>Every demo booked on /demo. Open one to move or cancel it.</p>}
    >
      <BookingBrowser />
    </PortalPage>
  );
}
