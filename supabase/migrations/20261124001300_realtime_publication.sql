-- Admins watch new sales inquiries, demo bookings and partner applications as
-- they arrive (Realtime "postgres_changes"). Publishing a table sends its
-- changes only to subscribers whose row-level security lets them read the row:
-- these three tables are readable by admins (and applicants their own
-- applications) only, so nobody else receives anything.
alter publication supabase_realtime add table public.leads, public.demo_bookings, public.partner_applications;
