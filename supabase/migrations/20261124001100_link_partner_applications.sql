-- A partner application follows the account that owns its address (issue 13).
--
-- The form's answer tells a visitor who applied signed out to "sign in or
-- create an account with that email to follow your application in the partner
-- portal". The portal reads the application through row-level security
-- (user_id = auth.uid()), and submit_partner_application only ever stored the
-- caller's auth.uid(), so an application made signed out stayed unlinked for
-- good: the applicant who did as told read "You have not applied yet".
--
-- Now an application is linked to the account whose email address is the
-- application's, once that address is confirmed on the account
-- (auth.users.email_confirmed_at), and only then: an account's unconfirmed
-- address proves nothing, and linking on it would show anyone who signs up
-- with someone else's address that person's application.
--
-- * When an account's address becomes confirmed (sign-up confirmed, a user
--   created already confirmed, a confirmed change of address), the
--   applications from that address that belong to no one are linked to it.
--   Our auth server, like GoTrue, keeps a requested new address in
--   email_change and writes it to email only when the change is confirmed, so
--   an account cannot take an address's applications by asking for the address.
-- * When an application arrives and a confirmed account already has its
--   address, it is linked to that account, whether or not the caller is signed
--   in (or signed in as someone else); a signed-in caller gets it only when no
--   confirmed account has the address (for example a user who signs in with a
--   phone number and applies with their email).
-- * An application already linked to an account is never moved to another: a
--   later owner of a recycled address, or a second account, takes nothing.
-- * Addresses compare in lower case (the form stores them lowered; the
--   comparison lowers the account's too). Exact addresses, not mailboxes: an
--   account for ann+x@ does not prove ann@.
-- * SSO accounts are left out: an identity provider's user may share an address
--   with a password account, so the address does not name one account.
--
-- Linking does not confirm the application. The account proves that its holder
-- reads the address, not that they made this application: anyone can apply
-- with someone else's address (security issue 22), and confirming on their
-- behalf would send a stranger's application to review in their name. An
-- unconfirmed application shows in the portal as "Please confirm your
-- application", and only its emailed link confirms it.
--
-- With MAILER_AUTOCONFIRM on, sign-up sets email_confirmed_at without any
-- email, so there "confirmed" proves nothing either; production runs with it
-- off (sign-up is confirmed by the emailed link).

-- The confirmed, current, non-SSO account whose address is `email` (at most
-- one: auth.users has one non-SSO account per lower-case address), or null.
create or replace function private.account_with_confirmed_email(email text) returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select u.id
  from auth.users u
  where lower(u.email) = lower(btrim(account_with_confirmed_email.email))
    and u.email is not null
    and u.email <> ''
    and not u.is_sso_user
    and u.email_confirmed_at is not null
    and u.deleted_at is null
    and not u.is_anonymous
  order by u.email_confirmed_at, u.id
  limit 1
$$;

comment on function private.account_with_confirmed_email is
  'The account whose confirmed address is the given one (lower case, no SSO, not deleted), or null.';

-- Links the applications from the user's address that belong to no one, when
-- the address is confirmed on the account. Fired after the row is written, so
-- it reads the user as stored.
create or replace function private.link_partner_applications_to_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.account_with_confirmed_email(new.email) is distinct from new.id then
    return null;
  end if;
  update public.partner_applications a
  set user_id = new.id
  where a.user_id is null
    and a.email = lower(btrim(new.email));
  return null;
end
$$;

comment on function private.link_partner_applications_to_user is
  'Trigger on auth.users: links unowned partner applications from the user''s address once it is '
  'confirmed.';

-- Fires whenever the address or its confirmation is written (an unchanged
-- value re-runs it harmlessly: only unowned applications are touched).
create trigger on_auth_user_email_confirmed_link_partner_applications
  after insert or update of email, email_confirmed_at on auth.users
  for each row
  when (new.email_confirmed_at is not null and new.email is not null)
  execute function private.link_partner_applications_to_user();

-- Applications made before this migration, by addresses whose account is
-- already confirmed.
update public.partner_applications a
set user_id = owner.id
from (
  select distinct on (p.email) p.email, private.account_with_confirmed_email(p.email) as id
  from public.partner_applications p
  where p.user_id is null
) as owner
where a.user_id is null
  and a.email = owner.email
  and owner.id is not null;

-- submit_partner_application as in 20261124000400, but for the owner of the
-- application (user_id): the confirmed account with its address, else the
-- signed-in caller. Its answer is unchanged, the same for every accepted call.
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
  token text;
  answer jsonb;
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
  -- The limits before anything that depends on the address.
  perform private.enforce_submission_limits('partner', application.email);
  answer := private.partner_application_answer(application.email);

  -- Links that were never followed go a week after they expired.
  delete from public.partner_applications a
  where a.status = 'unconfirmed' and a.confirm_expires_at < now() - interval '7 days';

  if exists (
    select from public.partners p join auth.users u on u.id = p.user_id
    where lower(u.email) = application.email
  ) then
    perform private.queue_email(
      application.email,
      'About your Cervana partner application',
      'partner_application_existing_partner',
      'You are already a Cervana partner',
      array[
        'Someone, perhaps you, asked to join the Cervana partner program with this email '
          || 'address. It already belongs to a partner, so there is nothing to apply for: sign in '
          || 'to open your partner portal.',
        'If this was not you, you can ignore this email; nothing has changed.'
      ],
      'Open the partner portal',
      site || '/partner-portal',
      'You are receiving this email because this address was entered at ' || site || '/partner.'
    );
    return answer;
  end if;

  if exists (
    select from public.partner_applications a
    where a.email = application.email and a.status = 'pending'
  ) then
    perform private.queue_email(
      application.email,
      'About your Cervana partner application',
      'partner_application_already_received',
      'We already have your application',
      array[
        'Someone, perhaps you, applied to the Cervana partner program again with this email '
          || 'address. We already have a confirmed application from it and are reviewing it; '
          || 'we will reply within five business days.',
        'There is nothing more to do. If this was not you, you can ignore this email.'
      ],
      'Read about the program',
      site || '/partner',
      'You are receiving this email because this address was entered at ' || site || '/partner.'
    );
    return answer;
  end if;

  -- A new application replaces one that was never confirmed.
  delete from public.partner_applications a
  where a.email = application.email and a.status = 'unconfirmed';
  token := private.new_token();
  begin
    -- The account with this address confirmed follows the application (issue 13); a
    -- signed-in caller only when no such account exists.
    insert into public.partner_applications (
      full_name, email, company, website, partner_type, expected_referrals, message, user_id,
      referred_by, status, confirm_token_hash, confirm_expires_at
    ) values (
      application.full_name, application.email, application.company, application.website,
      submit_partner_application.partner_type, submit_partner_application.expected_referrals,
      application.message,
      coalesce(private.account_with_confirmed_email(application.email), auth.uid()),
      private.partner_for_code(referral_code), 'unconfirmed',
      private.token_hash(token), now() + interval '3 days'
    )
    returning * into application;
  exception when unique_violation then
    -- Another application from this address arrived at the same moment; its
    -- email carries the link.
    return answer;
  end;

  perform private.queue_email(
    application.email,
    'Confirm your Cervana partner application',
    'partner_application_confirm',
    'Please confirm your application',
    array[
      -- Nothing the applicant typed: the address is not yet shown to be theirs, and
      -- our name must not carry someone else's text to it.
      'Someone, we hope you, applied to the Cervana partner program with this email address.',
      'If it was you, confirm your application with the link below within 3 days; our '
        || 'partnerships team reviews it once it is confirmed.',
      'If it was not you, ignore this email: nothing happens without the link.'
    ],
    'Confirm my application',
    site || '/partner?confirm=' || token,
    'Anyone with this email''s link can confirm this application, so please do not forward it.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );
  return answer;
end
$$;

comment on function public.submit_partner_application is
  'Takes a partner application: stores it unconfirmed, linked to the confirmed account with its '
  'address (else the signed-in caller), and emails the confirmation link (or tells the address''s '
  'owner they are already a partner or already applied); answers the same always.';

revoke execute on function public.submit_partner_application from public;
grant execute on function public.submit_partner_application to anon, authenticated, service_role;

-- Trigger functions and helpers are not for calling.
revoke all on function private.account_with_confirmed_email(text) from public, anon, authenticated;
revoke all on function private.link_partner_applications_to_user() from public, anon, authenticated;
