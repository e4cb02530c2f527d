-- The sales form's confirmation carries nothing the visitor typed (security
-- issue 22, "beyond the seven").
--
-- submit_sales_inquiry mails a confirmation to an address nobody has verified.
-- It used to greet the visitor by the first word of their name and repeat their
-- company (up to 120 characters each), so anyone could have Cervana send a
-- message of their wording (a link, a phone number, "your account is
-- suspended") to any address: a phishing relay under our name. The
-- confirmation now greets generically and holds only our own text, the lead's
-- reference (which we generate) and a link to our own site. Even a first name
-- cut down to letters could still carry words ("Verify-your-account"), and
-- which characters count as letters depends on the database's locale, so the
-- name is left out altogether. The sales inbox's notification (mailed to us)
-- keeps everything. Everything else in the function is unchanged.

create or replace function public.submit_sales_inquiry(
  full_name text,
  email text,
  company text,
  team_size text,
  monthly_call_volume text,
  consent boolean,
  job_role text default null,
  tools text[] default '{}',
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
  clean_name text;
  clean_email text;
  clean_company text;
  clean_role text;
  clean_message text;
  clean_tools text[];
  tool text;
  lead public.leads;
  sales text := private.sales_inbox();
  site text := private.site_url();
begin
  perform private.refuse_filled_honeypot(fax);
  clean_name := private.clean_text('full_name', full_name, 'your name', 120);
  clean_email := private.clean_email('email', email);
  clean_company := private.clean_text('company', company, 'your company', 120);
  clean_role := private.clean_text('job_role', job_role, 'your role', 120, false);
  perform private.clean_choice(
    'team_size', team_size, 'your team size', array['1-5', '6-20', '21-50', '51-200', '200+']
  );
  perform private.clean_choice(
    'monthly_call_volume', monthly_call_volume, 'your monthly call volume',
    array['under-500', '500-2000', '2000-10000', '10000+']
  );
  if cardinality(tools) > 12 then
    perform private.reject('tools', 'Please choose at most 12 tools.');
  end if;
  clean_tools := '{}';
  foreach tool in array coalesce(tools, '{}') loop
    tool := private.clean_text('tools', tool, 'each tool name', 40);
    if not tool = any (clean_tools) then
      clean_tools := clean_tools || tool;
    end if;
  end loop;
  clean_message := private.clean_text('message', message, 'your message', 2000, false, true);
  if consent is not true then
    perform private.reject('consent', 'Please agree to be contacted about your inquiry.');
  end if;
  perform private.enforce_submission_limits('sales', clean_email);

  insert into public.leads (
    full_name, email, company, job_role, team_size, monthly_call_volume, tools, message,
    consent_at, partner_id, user_id
  ) values (
    clean_name, clean_email, clean_company, clean_role, team_size, monthly_call_volume,
    clean_tools, clean_message, now(), private.partner_for_code(referral_code), auth.uid()
  )
  returning * into lead;

  -- The visitor's address is not verified: nothing they typed goes back to it.
  perform private.queue_email(
    clean_email,
    'We received your message',
    'sales_inquiry_confirmation',
    'Thanks for getting in touch',
    array[
      'Hello, and thank you for contacting Cervana. A customer success specialist will reply '
        || 'within one business day.',
      'If you would rather talk sooner, pick a 30-minute slot that suits you: we will walk you '
        || 'through Cervana on your own calls.',
      'Your reference: ' || upper(left(lead.id::text, 8)) || '.'
    ],
    'Book a demo now',
    site || '/demo',
    'You are receiving this email because you contacted Cervana sales at ' || site || '.',
    '[]'::jsonb,
    jsonb_build_object('lead_id', lead.id)
  );
  perform private.queue_email(
    sales,
    format('New lead: %s (%s, %s)', clean_company, lead.team_size, clean_name),
    'sales_inquiry_notification',
    'New sales inquiry',
    array[
      format('%s <%s>%s at %s.', clean_name, clean_email,
        coalesce(', ' || clean_role, ''), clean_company),
      format('Team size: %s. Monthly calls: %s. Tools: %s.', lead.team_size,
        lead.monthly_call_volume, coalesce(nullif(array_to_string(clean_tools, ', '), ''), 'none given')),
      'Message: ' || coalesce(clean_message, '(none)'),
      case when lead.partner_id is not null
        then 'Referred by partner ' || (select p.company || ' (' || p.referral_code || ')'
          from public.partners p where p.id = lead.partner_id) || '.'
        else 'No referral.' end
    ],
    'Open the leads pipeline',
    site || '/admin?tab=leads',
    'Sent to the sales inbox for every inquiry on ' || site || '/talk-to-sales.',
    '[]'::jsonb,
    jsonb_build_object('lead_id', lead.id)
  );

  return jsonb_build_object(
    'id', lead.id,
    'reference', upper(left(lead.id::text, 8)),
    'email', lead.email,
    'created_at', lead.created_at
  );
end
$$;

comment on function public.submit_sales_inquiry is
  'Stores a sales inquiry as a lead and queues the visitor''s confirmation and the sales notification.';

revoke execute on function public.submit_sales_inquiry from public;
grant execute on function public.submit_sales_inquiry to anon, authenticated, service_role;
