-- The admin email log (issue 17): admins read the outbox (every email and
-- text message the product queued), preview a message, resend a copy and
-- retry a delivery. The table itself stays closed to every API role: admins
-- read it only through the functions below, which hide sign-in links, reset
-- and invitation links, booking manage tokens and one-time codes before
-- anything leaves the database (decision 026). An admin who could read them
-- could sign in as anyone, other admins included.

-- ---------------------------------------------------------------------------
-- Indexes: newest first, by key, under each filter
-- ---------------------------------------------------------------------------

create index outbox_messages_created_id_idx on public.outbox_messages (created_at desc, id desc);
create index outbox_messages_status_created_idx on public.outbox_messages (status, created_at desc, id desc);
create index outbox_messages_template_created_idx on public.outbox_messages (template, created_at desc, id desc);
create index outbox_messages_channel_created_idx on public.outbox_messages (channel, created_at desc, id desc);
-- Resends: the copies of a message, and each admin's recent resends (limits).
create index outbox_messages_resent_from_idx on public.outbox_messages ((metadata ->> 'resent_from'), created_at desc)
  where metadata ? 'resent_from';
create index outbox_messages_resent_by_idx on public.outbox_messages ((metadata ->> 'resent_by'), created_at desc)
  where metadata ? 'resent_by';

-- ---------------------------------------------------------------------------
-- Redaction
-- ---------------------------------------------------------------------------

-- Messages whose whole point is a secret: the auth service's links and codes
-- (sign-up confirmation, magic link, recovery, invite, email change,
-- reauthentication) and every text message (one-time codes).
create or replace function private.is_secret_message(channel text, template text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select channel = 'sms' or template like 'auth.%'
$$;

-- A text with its secrets hidden: the value of every link parameter that
-- grants something (a verify token, a partner confirmation, a booking's manage
-- token, an invitation, an auth code, session tokens), in plain text, HTML
-- (`&amp;`) and JSON alike; and, in secret messages, every run of 6 to 10
-- digits (the one-time codes, whatever OTP length is configured).
create or replace function private.redact_secrets(value text, hide_codes boolean) returns text
language sql
immutable
set search_path = ''
as $$
  with links as (
    select regexp_replace(
      value,
      '([?&#;](token|token_hash|confirm|booking|invitation|code|otp|access_token|refresh_token|provider_token)=)[^&#"''<>[:space:]\\]+',
      '\1[hidden]',
      'gi'
    ) as hidden
  )
  select case
    when value is null then null
    when hide_codes then regexp_replace(links.hidden, '\m[0-9]{6,10}\M', '[hidden]', 'g')
    else links.hidden
  end
  from links
$$;

create or replace function private.redact_secrets_json(value jsonb, hide_codes boolean) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.redact_secrets(value::text, hide_codes)::jsonb
$$;

-- An attachment as the preview lists it: name, type, size, and for a text
-- file (an .ics invite) its text, unfolded and redacted.
create or replace function private.describe_attachment(attachment jsonb, hide_codes boolean) returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  content text := attachment ->> 'contentBase64';
  content_type text := coalesce(attachment ->> 'contentType', 'application/octet-stream');
  size integer := (char_length(coalesce(content, '')) * 3) / 4 - case
    when content like '%==' then 2 when content like '%=' then 1 else 0 end;
  shown text;
begin
  if content is not null and content_type like 'text/%' and size <= 200000 then
    begin
      shown := replace(convert_from(decode(content, 'base64'), 'UTF8'), E'\r\n ', '');
      shown := private.redact_secrets(shown, hide_codes);
    exception when others then
      shown := null;
    end;
  end if;
  return jsonb_build_object(
    'filename', coalesce(attachment ->> 'filename', 'attachment'),
    'content_type', content_type,
    'size', greatest(size, 0),
    'text', shown
  );
end
$$;

-- ---------------------------------------------------------------------------
-- The list
-- ---------------------------------------------------------------------------

-- One page of messages, newest first, after the cursor (the last row's
-- created_at and id). Each filter's index serves the order, so the 50th page
-- costs what the first does. Planned per call (dynamic SQL), so a filter left
-- out does not make the plan scan for it.
create or replace function public.admin_list_emails(
  p_status text default null,
  p_channel text default null,
  p_template text default null,
  p_recipient text default null,
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit integer default 50
) returns table (
  id uuid,
  channel text,
  recipient text,
  subject text,
  template text,
  status text,
  attempts integer,
  next_attempt_at timestamptz,
  last_error text,
  created_at timestamptz,
  sent_at timestamptz,
  is_secret boolean,
  resent_from uuid
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  conditions text := '';
  pattern text;
begin
  perform private.require_admin('Only Cervana admins can read the email log.');
  if p_status is not null and p_status not in ('pending', 'sent', 'logged', 'failed') then
    perform private.reject('status', 'Please choose a state: pending, sent, logged or failed.');
  end if;
  if p_channel is not null and p_channel not in ('email', 'sms') then
    perform private.reject('channel', 'Please choose a channel: email or sms.');
  end if;
  if p_template is not null and (char_length(p_template) > 100 or p_template ~ '[[:cntrl:]]') then
    perform private.reject('template', 'Please choose one of the kinds of message listed.');
  end if;
  if p_recipient is not null and (char_length(p_recipient) > 320 or p_recipient ~ '[[:cntrl:]]') then
    perform private.reject('recipient', 'Please search for at most 320 characters of an address or number.');
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    perform private.reject('cursor', 'Please send both parts of the page cursor (created_at and id), or neither.');
  end if;
  if p_limit is null or p_limit not between 1 and 200 then
    perform private.reject('limit', 'Please ask for between 1 and 200 messages at a time.');
  end if;

  if p_status is not null then conditions := conditions || ' and m.status = $1'; end if;
  if p_channel is not null then conditions := conditions || ' and m.channel = $2'; end if;
  if p_template is not null then conditions := conditions || ' and m.template = $3'; end if;
  pattern := nullif(btrim(coalesce(p_recipient, '')), '');
  if pattern is not null then
    pattern := '%' || replace(replace(replace(pattern, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    conditions := conditions || ' and m.recipient ilike $4';
  end if;
  if p_after_id is not null then
    conditions := conditions || ' and (m.created_at, m.id) < ($5, $6)';
  end if;

  return query execute format(
    'select m.id, m.channel, m.recipient,
       private.redact_secrets(m.subject, private.is_secret_message(m.channel, m.template)),
       m.template, m.status, m.attempts, m.next_attempt_at,
       private.redact_secrets(m.last_error, private.is_secret_message(m.channel, m.template)),
       m.created_at, m.sent_at, private.is_secret_message(m.channel, m.template),
       case when m.metadata ->> ''resent_from'' ~ ''^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$''
         then (m.metadata ->> ''resent_from'')::uuid end
     from public.outbox_messages m
     where true %s
     order by m.created_at desc, m.id desc
     limit $7',
    conditions
  )
  using p_status, p_channel, p_template, pattern, p_after_created_at, p_after_id, p_limit;
end
$$;

comment on function public.admin_list_emails is
  'Admins: outbox messages newest first, filtered by status, channel, template and recipient, '
  'paged by (created_at, id) of the last row. Links and codes that grant access are hidden.';

-- The kinds of message in the outbox, for the filter: a skip scan over the
-- template index (one probe per distinct template, not a read of the table).
create or replace function public.admin_email_templates() returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin('Only Cervana admins can read the email log.');
  return (
    with recursive kinds(name) as (
      (select m.template from public.outbox_messages m order by m.template limit 1)
      union all
      select (select m.template from public.outbox_messages m where m.template > k.name order by m.template limit 1)
      from kinds k
      where k.name is not null
    )
    select coalesce(jsonb_agg(k.name order by k.name), '[]'::jsonb) from kinds k where k.name is not null
  );
end
$$;

-- For the overview: messages that failed for good in the last 7 days (one
-- range of the status index; failures are few).
create or replace function public.admin_failed_email_count() returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin('Only Cervana admins can read the email log.');
  return (
    select count(*)::integer from public.outbox_messages m
    where m.status = 'failed' and m.created_at >= now() - interval '7 days'
  );
end
$$;

-- ---------------------------------------------------------------------------
-- The preview
-- ---------------------------------------------------------------------------

create or replace function public.admin_get_email(p_message_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  message public.outbox_messages;
  hide boolean;
  metadata jsonb;
begin
  perform private.require_admin('Only Cervana admins can read the email log.');
  if p_message_id is null then
    perform private.reject('message_id', 'Please say which message to show.');
  end if;
  select m.* into message from public.outbox_messages m where m.id = p_message_id;
  if message.id is null then
    raise exception using errcode = 'PT404', message = 'This message does not exist.', detail = 'message_id';
  end if;
  hide := private.is_secret_message(message.channel, message.template);
  metadata := private.redact_secrets_json(message.metadata, hide);
  return jsonb_build_object(
    'id', message.id,
    'channel', message.channel,
    'recipient', message.recipient,
    'subject', private.redact_secrets(message.subject, hide),
    'template', message.template,
    'status', message.status,
    'attempts', message.attempts,
    'next_attempt_at', message.next_attempt_at,
    'last_error', private.redact_secrets(message.last_error, hide),
    'created_at', message.created_at,
    'sent_at', message.sent_at,
    'is_secret', hide,
    'body_text', private.redact_secrets(message.body_text, hide),
    'body_html', private.redact_secrets(message.body_html, hide),
    'layout', metadata -> 'layout',
    'metadata', metadata - 'layout',
    'attachments', coalesce(
      (select jsonb_agg(private.describe_attachment(a, hide) order by n)
       from jsonb_array_elements(message.attachments) with ordinality as t(a, n)),
      '[]'::jsonb
    ),
    'resends', coalesce(
      (select jsonb_agg(jsonb_build_object(
          'id', c.id, 'created_at', c.created_at, 'status', c.status,
          'resent_by_email', c.metadata ->> 'resent_by_email'
        ) order by c.created_at desc)
       from public.outbox_messages c
       where c.metadata ? 'resent_from' and c.metadata ->> 'resent_from' = message.id::text),
      '[]'::jsonb
    )
  );
end
$$;

comment on function public.admin_get_email(uuid) is
  'Admins: one outbox message with its text, HTML (or layout), attachments, metadata and '
  'delivery, links and codes that grant access hidden; and the copies resent from it.';

-- ---------------------------------------------------------------------------
-- Resend and retry
-- ---------------------------------------------------------------------------

-- A new message copying one (the original stays as it was), to the same
-- recipient only. Refused for messages that carry a secret (the person asks
-- for a new link or code, which the auth service rate-limits), for a team
-- invitation (its workspace's owners resend it from the team page, which
-- checks it is still open), for a message resent in the last 5 minutes by
-- anyone, and past 30 resends an hour per admin.
create or replace function public.resend_outbox_message(p_message_id uuid) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  message public.outbox_messages;
  copy_id uuid;
  copy_created timestamptz;
begin
  perform private.require_admin('Only Cervana admins can resend emails.');
  if p_message_id is null then
    perform private.reject('message_id', 'Please say which message to resend.');
  end if;
  -- The lock makes two clicks at once wait for each other, so the second sees the first's copy.
  select m.* into message from public.outbox_messages m where m.id = p_message_id for update;
  if message.id is null then
    raise exception using errcode = 'PT404', message = 'This message does not exist.', detail = 'message_id';
  end if;
  if private.is_secret_message(message.channel, message.template) then
    perform private.reject('message_id',
      'This message carries a sign-in link or a one-time code, so it cannot be resent. '
      || 'Ask the person to request a new one: the old one may already be used or expired.');
  end if;
  if message.template = 'team.invitation' then
    perform private.reject('message_id',
      'Team invitations are resent by the workspace''s owners from their team page, which checks the invitation is still open.');
  end if;
  if exists (
    select from public.outbox_messages c
    where c.metadata ? 'resent_from' and c.metadata ->> 'resent_from' = message.id::text
      and c.created_at > now() - interval '5 minutes'
  ) then
    raise exception using errcode = 'PT429', detail = 'message_id',
      message = 'This message was resent less than 5 minutes ago. Please wait before sending it again.';
  end if;
  if (
    select count(*) from public.outbox_messages c
    where c.metadata ? 'resent_by' and c.metadata ->> 'resent_by' = auth.uid()::text
      and c.created_at > now() - interval '1 hour'
  ) >= 30 then
    raise exception using errcode = 'PT429', detail = 'message_id',
      message = 'You have resent 30 messages in the last hour. Please wait a while before resending more.';
  end if;

  insert into public.outbox_messages (channel, recipient, subject, body_text, body_html, template, attachments, metadata)
  values (
    message.channel, message.recipient, message.subject, message.body_text, message.body_html,
    message.template, message.attachments,
    message.metadata || jsonb_build_object(
      'resent_from', message.id,
      'resent_by', auth.uid(),
      'resent_by_email', auth.jwt() ->> 'email'
    )
  )
  returning id, created_at into copy_id, copy_created;

  insert into public.admin_audit_log (actor_id, actor_email, action, target_table, target_id, before, after, client_ip)
  values (
    auth.uid(), auth.jwt() ->> 'email', 'insert', 'outbox_messages', copy_id::text, null,
    jsonb_build_object(
      'resent_from', message.id,
      'recipient', message.recipient,
      'subject', message.subject,
      'template', message.template
    ),
    private.client_ip()
  );
  return jsonb_build_object('id', copy_id, 'created_at', copy_created, 'resent_from', message.id);
end
$$;

comment on function public.resend_outbox_message(uuid) is
  'Admins: queue a copy of a message to its recipient (audited). Refused for sign-in links, codes '
  'and team invitations (400), and within 5 minutes of the last resend or past 30 an hour (429).';

-- Delivery now for a pending or failed message: it becomes due (a failed one
-- pending again, for one more attempt). Already due: nothing changes.
create or replace function public.retry_outbox_message(p_message_id uuid) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  message public.outbox_messages;
  saved public.outbox_messages;
begin
  perform private.require_admin('Only Cervana admins can retry emails.');
  if p_message_id is null then
    perform private.reject('message_id', 'Please say which message to retry.');
  end if;
  select m.* into message from public.outbox_messages m where m.id = p_message_id for update;
  if message.id is null then
    raise exception using errcode = 'PT404', message = 'This message does not exist.', detail = 'message_id';
  end if;
  if message.status not in ('pending', 'failed') then
    perform private.reject('message_id',
      'This message was already delivered. Resend it to send a copy.');
  end if;
  if message.status = 'pending' and message.next_attempt_at <= now() then
    return jsonb_build_object('id', message.id, 'status', message.status,
      'next_attempt_at', message.next_attempt_at, 'changed', false);
  end if;

  update public.outbox_messages m set status = 'pending', next_attempt_at = now()
  where m.id = message.id
  returning m.* into saved;
  insert into public.admin_audit_log (actor_id, actor_email, action, target_table, target_id, before, after, client_ip)
  values (
    auth.uid(), auth.jwt() ->> 'email', 'update', 'outbox_messages', message.id::text,
    jsonb_build_object('status', message.status, 'next_attempt_at', message.next_attempt_at),
    jsonb_build_object('status', saved.status, 'next_attempt_at', saved.next_attempt_at),
    private.client_ip()
  );
  perform pg_notify('outbox', saved.id::text);
  return jsonb_build_object('id', saved.id, 'status', saved.status,
    'next_attempt_at', saved.next_attempt_at, 'changed', true);
end
$$;

comment on function public.retry_outbox_message(uuid) is
  'Admins: make a pending or failed message due now (audited); 400 for one already delivered.';

-- ---------------------------------------------------------------------------
-- Access: the table stays closed; admins call the functions
-- ---------------------------------------------------------------------------

revoke execute on function
  private.is_secret_message(text, text),
  private.redact_secrets(text, boolean),
  private.redact_secrets_json(jsonb, boolean),
  private.describe_attachment(jsonb, boolean)
from public, anon, authenticated;

revoke execute on function
  public.admin_list_emails(text, text, text, text, timestamptz, uuid, integer),
  public.admin_email_templates(),
  public.admin_failed_email_count(),
  public.admin_get_email(uuid),
  public.resend_outbox_message(uuid),
  public.retry_outbox_message(uuid)
from public, anon;
grant execute on function
  public.admin_list_emails(text, text, text, text, timestamptz, uuid, integer),
  public.admin_email_templates(),
  public.admin_failed_email_count(),
  public.admin_get_email(uuid),
  public.resend_outbox_message(uuid),
  public.retry_outbox_message(uuid)
to authenticated;
