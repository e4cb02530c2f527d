-- Admins hold the whole business, so admin access needs a second factor
-- (product brief §5): an admin's token counts as an admin's only at aal2,
-- that is after a verified TOTP code (or, later, another verified factor).
--
-- Everything an admin may do is decided through public.is_admin(): the
-- admin policies on every table and storage bucket, private.require_admin()
-- in the admin functions, and the audit triggers. So this one definition
-- refuses all admin-only data to a password-only (aal1) session, and to an
-- admin who never enrolled a factor, whose sessions can only be aal1. The
-- app asks such an admin to enrol before it shows anything of /admin; the
-- enrolment raises the session to aal2, and the admin's data follows.
--
-- Nothing else changes for them: at aal1 an admin without a factor is a
-- signed-in user like any other (their own profile, account settings).

create or replace function public.is_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    auth.jwt() -> 'app_metadata' ->> 'role' = 'admin' and auth.jwt() ->> 'aal' = 'aal2',
    false
  )
$$;

comment on function public.is_admin() is
  'True for a caller whose token has app_metadata.role = admin and aal2 (a verified second factor).';
