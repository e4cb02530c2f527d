-- Every email and text message the product sends is written here first, in the
-- same transaction as the change that caused it. The server delivers it (SMTP
-- when configured, else the server log) and records the outcome; a failed
-- delivery is retried with backoff and the message is never lost.
create table public.outbox_messages (
  id uuid primary key default gen_random_uuid(),
  channel text not null check (channel in ('email', 'sms')),
  recipient text not null check (char_length(recipient) between 3 and 320),
  subject text check (char_length(subject) <= 300),
  body_text text not null check (char_length(body_text) <= 100000),
  body_html text check (char_length(body_html) <= 500000),
  template text not null check (char_length(template) <= 100),
  attachments jsonb not null default '[]'::jsonb check (jsonb_typeof(attachments) = 'array'),
  metadata jsonb not null default '{}'::jsonb,
  status text not null default 'pending' check (status in ('pending', 'sent', 'logged', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

comment on table public.outbox_messages is
  'Messages to send. Written in the transaction that causes them; delivered and marked by the server.';

create index outbox_messages_due_idx on public.outbox_messages (next_attempt_at) where status = 'pending';
create index outbox_messages_created_at_idx on public.outbox_messages (created_at desc);

-- Messages hold sign-in links and codes: nobody reads them through the API
-- unless a policy says so (admins, added with the admin area).
alter table public.outbox_messages enable row level security;
revoke all on public.outbox_messages from anon, authenticated;

create or replace function public.notify_outbox() returns trigger
language plpgsql
as $$
begin
  perform pg_notify('outbox', new.id::text);
  return new;
end
$$;
revoke execute on function public.notify_outbox() from public, anon, authenticated;

create trigger outbox_messages_notify
  after insert on public.outbox_messages
  for each row execute function public.notify_outbox();
