-- Applications to the partner program from /partner. Stored through
-- submit_partner_application(), acknowledged by email, reviewed by admins.
-- A signed-in applicant sees their application's status in /partner-portal.

create table public.partner_applications (
  id uuid primary key default gen_random_uuid(),
  full_name text not null check (char_length(full_name) between 1 and 120),
  email text not null check (char_length(email) between 3 and 254),
  company text not null check (char_length(company) between 1 and 120),
  website text check (char_length(website) <= 300),
  partner_type text not null
    check (partner_type in ('consultancy', 'agency', 'reseller', 'technology', 'other')),
  expected_referrals integer not null check (expected_referrals between 0 and 1000),
  message text check (char_length(message) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  decision_reason text check (char_length(decision_reason) <= 1000),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz,
  user_id uuid references auth.users (id) on delete set null,
  referred_by uuid references public.partners (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.partner_applications is
  'Applications to the partner program; admins approve (creating the partner) or reject with a reason.';

create index partner_applications_created_at_idx on public.partner_applications (created_at desc);
create index partner_applications_user_id_idx on public.partner_applications (user_id);
-- One open application per address.
create unique index partner_applications_one_pending_idx
  on public.partner_applications (email) where status = 'pending';

create trigger partner_applications_set_updated_at before update on public.partner_applications
  for each row execute function public.set_updated_at();

create or replace function private.clean_website(value text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  cleaned text := private.clean_text('website', value, 'your website', 300, false);
begin
  if cleaned is null then
    return null;
  end if;
  if cleaned !~* '^https?://' then
    cleaned := 'https://' || cleaned;
  end if;
  if cleaned !~* '^https?://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[0-9]{1,5})?([/?#][^\s]*)?$' then
    perform private.reject('website', 'Please enter your website''s address, like https://example.com.');
  end if;
  return cleaned;
end
$$;

create or replace function public.submit_partner_application(
  full_name text,
  email text,
  company text,
  partner_type text,
  expected_referrals integer,
  website text default null,
  message text default null,
  referral_code text default null,
  fax text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  application public.partner_applications;
  site text := private.site_url();
  first_name text;
begin
  perform private.refuse_filled_honeypot(fax);
  application.full_name := private.clean_text('full_name', full_name, 'your name', 120);
  application.email := private.clean_email('email', email);
  application.company := private.clean_text('company', company, 'your company', 120);
  application.website := private.clean_website(website);
  perform private.clean_choice(
    'partner_type', partner_type, 'the kind of partner you are',
    array['consultancy', 'agency', 'reseller', 'technology', 'other']
  );
  if expected_referrals is null then
    perform private.reject('expected_referrals', 'Please tell us how many teams you might refer each month.');
  end if;
  if expected_referrals < 0 or expected_referrals > 1000 then
    perform private.reject('expected_referrals', 'Please enter a number of referrals between 0 and 1,000.');
  end if;
  application.message := private.clean_text('message', message, 'your message', 2000, false, true);
  if exists (
    select from public.partner_applications a
    where a.email = application.email and a.status = 'pending'
  ) then
    raise exception using errcode = 'PT409',
      message = 'We already have an application from this email address, and we are reviewing it. '
        || 'We will reply within five business days.',
      detail = 'email';
  end if;
  if exists (
    select from public.partners p join auth.users u on u.id = p.user_id
    where lower(u.email) = application.email
  ) then
    raise exception using errcode = 'PT409',
      message = 'This email address already belongs to a partner. Sign in to open the partner portal.',
      detail = 'email';
  end if;
  perform private.enforce_submission_limits('partner', application.email);

  begin
    insert into public.partner_applications (
      full_name, email, company, website, partner_type, expected_referrals, message, user_id,
      referred_by
    ) values (
      application.full_name, application.email, application.company, application.website,
      submit_partner_application.partner_type, submit_partner_application.expected_referrals,
      application.message, auth.uid(), private.partner_for_code(referral_code)
    )
    returning * into application;
  exception when unique_violation then
    raise exception using errcode = 'PT409',
      message = 'We already have an application from this email address, and we are reviewing it. '
        || 'We will reply within five business days.',
      detail = 'email';
  end;

  first_name := split_part(application.full_name, ' ', 1);
  perform private.queue_email(
    application.email,
    'We received your partner application',
    'partner_application_received',
    'Thanks for applying, ' || first_name,
    array[
      format('Hi %s, thanks for applying to the Cervana partner program on behalf of %s.',
        first_name, application.company),
      'Our partnerships team reviews every application by hand and will reply within five '
        || 'business days. Approved partners get a referral link, the partner portal and '
        || 'co-branded demo material.',
      'Your reference: ' || upper(left(application.id::text, 8)) || '.'
    ],
    'Read about the program',
    site || '/partner',
    'You are receiving this email because you applied at ' || site || '/partner.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );
  perform private.queue_email(
    private.sales_inbox(),
    format('Partner application: %s (%s)', application.company, application.partner_type),
    'partner_application_notification',
    'New partner application',
    array[
      format('%s <%s> at %s%s.', application.full_name, application.email, application.company,
        coalesce(' (' || application.website || ')', '')),
      format('Type: %s. Expected referrals a month: %s.', application.partner_type,
        application.expected_referrals),
      'Message: ' || coalesce(application.message, '(none)')
    ],
    'Review applications',
    site || '/admin?tab=partners',
    'Sent to the sales inbox for every application on ' || site || '/partner.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );

  return jsonb_build_object(
    'id', application.id,
    'reference', upper(left(application.id::text, 8)),
    'email', application.email,
    'status', application.status,
    'created_at', application.created_at
  );
end
$$;

comment on function public.submit_partner_application is
  'Stores a partner application and queues its acknowledgement and the team''s notification.';

revoke execute on function public.submit_partner_application from public;
grant execute on function public.submit_partner_application to anon, authenticated, service_role;
revoke execute on all functions in schema private from public, anon, authenticated;

alter table public.partner_applications enable row level security;
revoke all on public.partner_applications from anon, authenticated;
grant all on public.partner_applications to service_role;
grant select, update (status, decision_reason, reviewed_by, reviewed_at), delete
  on public.partner_applications to authenticated;

create policy "Applicants read their own applications, admins all"
  on public.partner_applications for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

create policy "Admins decide applications"
  on public.partner_applications for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Admins remove applications"
  on public.partner_applications for delete to authenticated
  using ((select public.is_admin()));
