-- Two-factor authentication is enforced where the data is, not only in the
-- browser: a user with a verified second factor reads and writes nothing
-- through the data API or storage until their session is aal2 (they passed
-- the second factor). Users without a verified factor are not affected, and
-- neither are the public forms' security definer functions, which run as
-- their owner. Supabase's recommended pattern
-- (https://supabase.com/docs/guides/auth/auth-mfa, "Enforce rules for MFA logins"),
-- as one helper and one restrictive policy per table. See decision 013.

-- ---------------------------------------------------------------------------
-- The helper: true unless the caller has a verified factor and an aal1 token.
-- security definer, because the API roles cannot read auth.mfa_factors; stable,
-- and called as (select public.mfa_satisfied()), so a statement evaluates it
-- once, not once per row.
-- ---------------------------------------------------------------------------

create or replace function public.mfa_satisfied() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', '') = 'aal2'
    or not exists (
      select
      from auth.mfa_factors f
      where f.user_id = auth.uid()
        and f.status = 'verified'
    )
$$;

comment on function public.mfa_satisfied() is
  'False when the caller has a verified second factor but a session without it (aal1): '
  'the restrictive policy "Second factor required once enrolled" then refuses every row.';

revoke execute on function public.mfa_satisfied() from public;
grant execute on function public.mfa_satisfied() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- One restrictive policy on every table of public with row-level security,
-- and on storage's buckets and objects. A restrictive policy is ANDed with the
-- permissive ones, so it only ever takes access away. A table added later gets
-- the same statement in its own migration; server/security/mfa.int.test.ts
-- fails while any table lacks it:
--
--   create policy "Second factor required once enrolled"
--     on public.<table> as restrictive for all to authenticated
--     using ((select public.mfa_satisfied()))
--     with check ((select public.mfa_satisfied()));
-- ---------------------------------------------------------------------------

do $$
declare
  target regclass;
begin
  for target in
    select c.oid::regclass
    from pg_catalog.pg_class c
    where c.relnamespace = 'public'::regnamespace
      and c.relkind in ('r', 'p')
      and c.relrowsecurity
    union all
    select 'storage.buckets'::regclass
    union all
    select 'storage.objects'::regclass
  loop
    execute format('drop policy if exists %I on %s', 'Second factor required once enrolled', target);
    execute format(
      'create policy %I on %s as restrictive for all to authenticated '
      'using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()))',
      'Second factor required once enrolled',
      target
    );
  end loop;
end
$$;
