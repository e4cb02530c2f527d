-- Partner applications and partners in the admin area (issue 17, decision 024).
--
-- * admin_partner_applications and admin_partners list them a page at a time
--   by key (created_at, id), with what the page needs from tables admins cannot
--   read through the API (whether the applicant has an account, the partner's
--   email) and cheap per-partner counts.
-- * approve_partner_application grants the partner role to the applicant's
--   confirmed account, creating their partner record (company from the
--   application) at once, so the welcome email carries their referral code.
--   With no account yet, the approval is recorded, and the role is granted
--   when an account with that confirmed address appears (never on an
--   unconfirmed one).
-- * reject_partner_application needs a reason, which the applicant is emailed.
-- * update_partner changes tier, commission rate and status from the version
--   the admin saw (PT409 when stale), like update_lead.
-- Decisions and rows are in the audit log through the existing triggers; the
-- role written to auth.users gets an explicit entry.

-- ---------------------------------------------------------------------------
-- Columns and indexes
-- ---------------------------------------------------------------------------

alter table public.partner_applications
  add column partner_id uuid references public.partners (id) on delete set null;

comment on column public.partner_applications.partner_id is
  'The partner record an approved application became (null until the applicant has an account).';

create index partner_applications_partner_id_idx on public.partner_applications (partner_id);
-- The lists' orders: newest first, all or one status.
create index partner_applications_created_id_idx
  on public.partner_applications (created_at desc, id desc);
create index partner_applications_status_created_idx
  on public.partner_applications (status, created_at desc, id desc);
-- Approvals still waiting for their applicant's account.
create index partner_applications_awaiting_account_idx
  on public.partner_applications (email) where status = 'approved' and partner_id is null;

alter table public.partners
  add column version integer not null default 1 check (version >= 1);

comment on column public.partners.version is
  'Bumped by every change; update_partner refuses a change made from an older version (409).';

create or replace function private.bump_partner_version() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  return new;
end
$$;

create trigger partners_bump_version before update on public.partners
  for each row execute function private.bump_partner_version();

create index partners_created_id_idx on public.partners (created_at desc, id desc);
create index partners_status_created_idx on public.partners (status, created_at desc, id desc);

-- Applications and partners change through the functions below only, so a
-- decision always grants the role and emails the applicant, and a partner's
-- terms are changed from the version the admin saw.
revoke update on public.partner_applications from authenticated;
drop policy if exists "Admins decide applications" on public.partner_applications;
revoke update on public.partners from authenticated;
drop policy if exists "Admins change partners" on public.partners;

grant select (partner_id) on public.partner_applications to authenticated;

-- ---------------------------------------------------------------------------
-- Granting the role
-- ---------------------------------------------------------------------------

-- Makes `account` a partner for `application`: the partner record (company
-- from the application; an existing record is kept), then the role in
-- app_metadata, other keys kept. When an admin does it, the role change is in
-- the audit log (auth.users has no audit trigger). Returns the partner.
create or replace function private.grant_partner_role(
  account uuid,
  application public.partner_applications
) returns public.partners
language plpgsql
security definer
set search_path = ''
as $$
declare
  partner public.partners;
  previous_role text;
begin
  select u.raw_app_meta_data ->> 'role' into previous_role
  from auth.users u where u.id = account for update;

  select p.* into partner from public.partners p where p.user_id = account;
  if partner.id is null then
    insert into public.partners (user_id, company, referral_code)
    values (account, application.company, private.new_referral_code(application.company))
    returning * into partner;
  end if;

  if previous_role is distinct from 'partner' then
    update auth.users u
    set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb) || '{"role": "partner"}'::jsonb,
      updated_at = now()
    where u.id = account;
    if public.is_admin() then
      insert into public.admin_audit_log (
        actor_id, actor_email, action, target_table, target_id, before, after, client_ip
      ) values (
        auth.uid(),
        auth.jwt() ->> 'email',
        'update',
        'users',
        account::text,
        jsonb_build_object('role', previous_role, 'application_id', application.id),
        jsonb_build_object('role', 'partner', 'application_id', application.id),
        private.client_ip()
      );
    end if;
  end if;
  return partner;
end
$$;

-- When an account's address is confirmed (at sign-up's confirmation, a user
-- created confirmed, a confirmed change of address), an application from
-- that address approved before the account existed makes it a partner.
-- Deferred to the end of the transaction, so that the auth server's own
-- writes to app_metadata in the same transaction come first.
create or replace function private.grant_approved_partner_application() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  account auth.users;
  application public.partner_applications;
  partner public.partners;
begin
  select u.* into account from auth.users u where u.id = new.id;
  if account.id is null
    or account.email_confirmed_at is null
    or private.account_with_confirmed_email(account.email) is distinct from account.id
    or coalesce(account.raw_app_meta_data ->> 'role', '') = 'admin' then
    return null;
  end if;
  select a.* into application
  from public.partner_applications a
  where a.status = 'approved'
    and a.partner_id is null
    and a.email = lower(btrim(account.email))
    and (a.user_id is null or a.user_id = account.id)
  order by a.reviewed_at desc nulls last, a.id
  limit 1
  for update;
  if application.id is null then
    return null;
  end if;
  partner := private.grant_partner_role(account.id, application);
  update public.partner_applications a
  set user_id = account.id, partner_id = partner.id
  where a.id = application.id;
  return null;
end
$$;

comment on function private.grant_approved_partner_application is
  'Trigger on auth.users: makes the account a partner when an application from its confirmed '
  'address was approved before it existed.';

create constraint trigger on_auth_user_email_confirmed_grant_approved_partner
  after insert or update of email, email_confirmed_at on auth.users
  deferrable initially deferred
  for each row
  when (new.email_confirmed_at is not null and new.email is not null)
  execute function private.grant_approved_partner_application();

-- ---------------------------------------------------------------------------
-- Lists
-- ---------------------------------------------------------------------------

-- A term as a LIKE pattern that finds it anywhere (its own wildcards escaped).
create or replace function private.contains_pattern(term text) returns text
language sql
immutable
set search_path = ''
as $$
  select '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

create or replace function private.check_page_args(
  p_limit integer,
  p_before_created_at timestamptz,
  p_before_id uuid
) returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    perform private.reject('limit', 'Please ask for between 1 and 100 rows at a time.');
  end if;
  if (p_before_created_at is null) <> (p_before_id is null) then
    perform private.reject('before', 'Please send both the time and the id of the last row shown.');
  end if;
end
$$;

-- Applications, newest first, all or one status, a page at a time: rows after
-- (before_created_at, before_id). Each says whether its applicant has an
-- account (linked, or a confirmed one with its address) and, when approved,
-- the partner's referral code. `pending` counts those waiting for review.
create or replace function public.admin_partner_applications(
  p_status text default null,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cursor_at timestamptz := coalesce(p_before_created_at, 'infinity'::timestamptz);
  cursor_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
  page public.partner_applications[];
  page_rows jsonb;
  next_cursor jsonb;
begin
  perform private.require_admin('Only Cervana admins can review partner applications.');
  if p_status is not null then
    perform private.clean_choice(
      'status', p_status, 'a status', array['unconfirmed', 'pending', 'approved', 'rejected']
    );
  end if;
  perform private.check_page_args(p_limit, p_before_created_at, p_before_id);

  if p_status is null then
    page := array(
      select a from public.partner_applications a
      where (a.created_at, a.id) < (cursor_at, cursor_id)
      order by a.created_at desc, a.id desc
      limit p_limit + 1
    );
  else
    page := array(
      select a from public.partner_applications a
      where a.status = p_status and (a.created_at, a.id) < (cursor_at, cursor_id)
      order by a.created_at desc, a.id desc
      limit p_limit + 1
    );
  end if;

  if cardinality(page) > p_limit then
    next_cursor := jsonb_build_object('created_at', page[p_limit].created_at, 'id', page[p_limit].id);
    page := page[1:p_limit];
  end if;

  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', a.id,
      'full_name', a.full_name,
      'email', a.email,
      'company', a.company,
      'website', a.website,
      'partner_type', a.partner_type,
      'expected_referrals', a.expected_referrals,
      'message', a.message,
      'status', a.status,
      'decision_reason', a.decision_reason,
      'reviewed_at', a.reviewed_at,
      'reviewer_email', (select u.email from auth.users u where u.id = a.reviewed_by),
      'confirmed_at', a.confirmed_at,
      'created_at', a.created_at,
      'has_account', a.user_id is not null
        or private.account_with_confirmed_email(a.email) is not null,
      'partner_id', a.partner_id,
      'referral_code', (select p.referral_code from public.partners p where p.id = a.partner_id)
    ) order by a.created_at desc, a.id desc
  ), '[]'::jsonb) into page_rows
  from unnest(page) a;

  return jsonb_build_object(
    'rows', page_rows,
    'next', next_cursor,
    'pending', (select count(*) from public.partner_applications a where a.status = 'pending')
  );
end
$$;

comment on function public.admin_partner_applications is
  'Admins: partner applications newest first (all or one status), a keyset page at a time.';

-- Partners, newest first, all or one status, optionally those whose company,
-- referral code or email contains `search`; with their email, referral-link
-- visits, attributed leads and referred sign-ups.
create or replace function public.admin_partners(
  p_search text default null,
  p_status text default null,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cursor_at timestamptz := coalesce(p_before_created_at, 'infinity'::timestamptz);
  cursor_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
  term text := nullif(btrim(p_search), '');
  pattern text;
  page public.partners[];
  page_rows jsonb;
  next_cursor jsonb;
begin
  perform private.require_admin('Only Cervana admins can see the partners.');
  if term is not null and char_length(term) > 100 then
    perform private.reject('search', 'Please keep the search under 101 characters.');
  end if;
  if p_status is not null then
    perform private.clean_choice('status', p_status, 'a status', array['active', 'suspended']);
  end if;
  perform private.check_page_args(p_limit, p_before_created_at, p_before_id);
  pattern := private.contains_pattern(coalesce(term, ''));

  page := array(
    select p from public.partners p
    where (p.created_at, p.id) < (cursor_at, cursor_id)
      and (p_status is null or p.status = p_status)
      and (
        term is null
        or p.company ilike pattern
        or p.referral_code ilike pattern
        or exists (select from auth.users u where u.id = p.user_id and u.email ilike pattern)
      )
    order by p.created_at desc, p.id desc
    limit p_limit + 1
  );

  if cardinality(page) > p_limit then
    next_cursor := jsonb_build_object('created_at', page[p_limit].created_at, 'id', page[p_limit].id);
    page := page[1:p_limit];
  end if;

  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', p.id,
      'user_id', p.user_id,
      'email', (select u.email from auth.users u where u.id = p.user_id),
      'company', p.company,
      'referral_code', p.referral_code,
      'tier', p.tier,
      'commission_rate', p.commission_rate,
      'status', p.status,
      'version', p.version,
      'created_at', p.created_at,
      'clicks', (select coalesce(sum(r.clicks), 0) from public.referral_clicks r where r.partner_id = p.id),
      'leads', (select count(*) from public.leads l where l.partner_id = p.id),
      'sign_ups', (select count(*) from public.profiles f where f.referred_by = p.id)
    ) order by p.created_at desc, p.id desc
  ), '[]'::jsonb) into page_rows
  from unnest(page) p;

  return jsonb_build_object('rows', page_rows, 'next', next_cursor);
end
$$;

comment on function public.admin_partners is
  'Admins: partners newest first, filtered by status and a search of company, code or email, '
  'a keyset page at a time, with their clicks, leads and sign-ups.';

-- ---------------------------------------------------------------------------
-- Decisions
-- ---------------------------------------------------------------------------

-- The application, locked, that an admin decides: refused with a sentence
-- unless it exists and waits for review.
create or replace function private.application_to_decide(
  p_application_id uuid,
  verb text
) returns public.partner_applications
language plpgsql
security definer
set search_path = ''
as $$
declare
  application public.partner_applications;
begin
  if p_application_id is null then
    perform private.reject('application_id', format('Please choose the application to %s.', verb));
  end if;
  select a.* into application from public.partner_applications a
  where a.id = p_application_id for update;
  if application.id is null then
    raise exception using errcode = 'PT404',
      message = 'This application does not exist (any more).', detail = 'application_id';
  end if;
  if application.status <> 'pending' then
    raise exception using errcode = 'PT409',
      message = case application.status
        when 'approved' then format('This application was already approved, so it cannot be %s now.',
          case verb when 'approve' then 'approved again' else 'rejected' end)
        when 'rejected' then format('This application was already rejected, so it cannot be %s now.',
          case verb when 'approve' then 'approved' else 'rejected again' end)
        else 'The applicant has not confirmed their email address yet, so this application cannot '
          || 'be reviewed.'
      end,
      detail = 'status';
  end if;
  return application;
end
$$;

create or replace function public.approve_partner_application(p_application_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  application public.partner_applications;
  account uuid;
  partner public.partners;
  site text := private.site_url();
  first_name text;
begin
  perform private.require_admin('Only Cervana admins can approve partner applications.');
  application := private.application_to_decide(p_application_id, 'approve');

  -- The account the application follows (unless since deleted), else the confirmed one with its address.
  account := coalesce(
    (select u.id from auth.users u where u.id = application.user_id and u.deleted_at is null),
    private.account_with_confirmed_email(application.email)
  );
  if account is not null and exists (
    select from auth.users u where u.id = account and u.raw_app_meta_data ->> 'role' = 'admin'
  ) then
    raise exception using errcode = 'PT409',
      message = 'This applicant''s account belongs to a Cervana admin, and an admin cannot also be a '
        || 'partner. Reject the application with a note instead.',
      detail = 'application_id';
  end if;
  if account is not null then
    partner := private.grant_partner_role(account, application);
  end if;

  update public.partner_applications a
  set status = 'approved', decision_reason = null, reviewed_by = auth.uid(), reviewed_at = now(),
    user_id = coalesce(a.user_id, account), partner_id = partner.id
  where a.id = application.id
  returning * into application;

  first_name := split_part(application.full_name, ' ', 1);
  if partner.id is not null then
    perform private.queue_email(
      application.email,
      'Welcome to the Cervana partner program',
      'partner_application_approved',
      'Welcome aboard, ' || first_name,
      array[
        format('Hi %s, your application to the Cervana partner program on behalf of %s is approved.',
          first_name, application.company),
        format('Your referral code is %s, and your referral link is %s/?ref=%s. Anyone who arrives '
          || 'through it is credited to you for 90 days.', partner.referral_code, site,
          partner.referral_code),
        'Sign in with this email address to open the partner portal, where you will find your '
          || 'link, its visits and your commission.'
      ],
      'Sign in to the partner portal',
      site || '/auth?next=%2Fpartner-portal',
      'You are receiving this email because you applied at ' || site || '/partner.',
      '[]'::jsonb,
      jsonb_build_object('application_id', application.id, 'partner_id', partner.id)
    );
  else
    perform private.queue_email(
      application.email,
      'Welcome to the Cervana partner program',
      'partner_application_approved',
      'Welcome aboard, ' || first_name,
      array[
        format('Hi %s, your application to the Cervana partner program on behalf of %s is approved.',
          first_name, application.company),
        'Create your Cervana account with this email address and confirm it: the partner portal '
          || 'then opens with your referral link and code.'
      ],
      'Create your account',
      site || '/auth?mode=sign-up&next=%2Fpartner-portal',
      'You are receiving this email because you applied at ' || site || '/partner.',
      '[]'::jsonb,
      jsonb_build_object('application_id', application.id)
    );
  end if;

  return jsonb_build_object(
    'id', application.id,
    'status', application.status,
    'partner_id', partner.id,
    'referral_code', partner.referral_code,
    'has_account', account is not null
  );
end
$$;

comment on function public.approve_partner_application(uuid) is
  'Admins approve a pending application: the applicant''s confirmed account becomes a partner (or '
  'will, when it appears), and they are emailed. 409 unless the application is pending.';

create or replace function public.reject_partner_application(p_application_id uuid, p_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  application public.partner_applications;
  reason text;
  site text := private.site_url();
  first_name text;
begin
  perform private.require_admin('Only Cervana admins can reject partner applications.');
  reason := private.clean_text('reason', p_reason, 'the reason for the applicant', 1000, true, true);
  application := private.application_to_decide(p_application_id, 'reject');

  update public.partner_applications a
  set status = 'rejected', decision_reason = reason, reviewed_by = auth.uid(), reviewed_at = now()
  where a.id = application.id
  returning * into application;

  first_name := split_part(application.full_name, ' ', 1);
  perform private.queue_email(
    application.email,
    'About your Cervana partner application',
    'partner_application_rejected',
    'About your application, ' || first_name,
    array[
      format('Hi %s, thank you for applying to the Cervana partner program on behalf of %s. We '
        || 'have decided not to accept the application at this time.', first_name, application.company),
      'Our partnerships team wrote: ' || reason,
      'If your situation changes, you are welcome to apply again.'
    ],
    'Read about the program',
    site || '/partner',
    'You are receiving this email because you applied at ' || site || '/partner.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );

  return jsonb_build_object(
    'id', application.id,
    'status', application.status,
    'decision_reason', application.decision_reason
  );
end
$$;

comment on function public.reject_partner_application(uuid, text) is
  'Admins reject a pending application with a reason (required), which the applicant is emailed.';

-- ---------------------------------------------------------------------------
-- A partner's terms
-- ---------------------------------------------------------------------------

create or replace function public.update_partner(
  p_partner_id uuid,
  p_changes jsonb,
  p_expected_version integer
) returns public.partners
language plpgsql
security definer
set search_path = ''
as $$
declare
  partner public.partners;
  saved public.partners;
  unknown text;
  new_rate numeric;
begin
  perform private.require_admin('Only Cervana admins can change partners.');
  if p_changes is null or jsonb_typeof(p_changes) <> 'object' then
    perform private.reject('changes', 'Please send the partner''s changes as one object.');
  end if;
  select k into unknown from jsonb_object_keys(p_changes) k
  where k not in ('tier', 'commission_rate', 'status') limit 1;
  if unknown is not null then
    perform private.reject(unknown, format('"%s" cannot be changed here.', left(unknown, 60)));
  end if;

  select p.* into partner from public.partners p where p.id = p_partner_id for update;
  if partner.id is null then
    raise exception using errcode = 'PT404',
      message = 'This partner does not exist (any more).', detail = 'partner_id';
  end if;
  if p_expected_version is null or p_expected_version <> partner.version then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed this partner since you opened it. Reload it to see their '
        || 'change, then make yours again.',
      detail = 'version';
  end if;

  if p_changes ? 'tier' then
    partner.tier := private.clean_choice(
      'tier', p_changes ->> 'tier', 'a tier', array['registered', 'silver', 'gold']
    );
  end if;
  if p_changes ? 'commission_rate' then
    if jsonb_typeof(p_changes -> 'commission_rate') <> 'number'
      or char_length(p_changes ->> 'commission_rate') > 20 then
      perform private.reject('commission_rate', 'Please enter the commission as a percentage from 0 to 50.');
    end if;
    new_rate := (p_changes ->> 'commission_rate')::numeric;
    if new_rate < 0 or new_rate > 0.5 then
      perform private.reject('commission_rate', 'Please enter a commission from 0 % to 50 %.');
    end if;
    if new_rate <> round(new_rate, 3) then
      perform private.reject('commission_rate', 'Please give the commission to one decimal place at most, like 17.5 %.');
    end if;
    partner.commission_rate := new_rate;
  end if;
  if p_changes ? 'status' then
    partner.status := private.clean_choice(
      'status', p_changes ->> 'status', 'a status', array['active', 'suspended']
    );
  end if;

  update public.partners p set
    tier = partner.tier,
    commission_rate = partner.commission_rate,
    status = partner.status
  where p.id = partner.id
  returning p.* into saved;
  return saved;
end
$$;

comment on function public.update_partner(uuid, jsonb, integer) is
  'Admins change a partner''s tier, commission_rate (0 to 0.5) and status (a suspended partner''s '
  'code attributes nothing). 400 names the field refused; 409 when p_expected_version is stale.';

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

revoke execute on function
  private.bump_partner_version(),
  private.grant_partner_role(uuid, public.partner_applications),
  private.grant_approved_partner_application(),
  private.contains_pattern(text),
  private.check_page_args(integer, timestamptz, uuid),
  private.application_to_decide(uuid, text)
from public, anon, authenticated;

revoke execute on function
  public.admin_partner_applications(text, timestamptz, uuid, integer),
  public.admin_partners(text, text, timestamptz, uuid, integer),
  public.approve_partner_application(uuid),
  public.reject_partner_application(uuid, text),
  public.update_partner(uuid, jsonb, integer)
from public, anon, service_role;
grant execute on function
  public.admin_partner_applications(text, timestamptz, uuid, integer),
  public.admin_partners(text, text, timestamptz, uuid, integer),
  public.approve_partner_application(uuid),
  public.reject_partner_application(uuid, text),
  public.update_partner(uuid, jsonb, integer)
to authenticated;
