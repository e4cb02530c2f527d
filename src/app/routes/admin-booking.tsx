import { useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { BookingDetail } from '@/features/admin/components/booking-detail';

/** /admin/bookings/:bookingId; its query string is the bookings list's, for the way back. */
export default function AdminBookingPage() {
  const { bookingId = '' } = useParams();
  const { search } = useLocation();
  const query = new URLSearchParams(search).toString();
  return (
    <BookingDetail
      key={bookingId}
      bookingId={bookingId}
      backTo={query ? `${paths.adminBookings}?${query}` : paths.adminBookings}
    />
  );
}
