-- Future demos per email domain: not for the domains of public mail services.
--
-- 20261124000300 caps how many upcoming demos the addresses of one email
-- domain may hold (3 by default), so one company's inbox cannot be flooded
-- with confirmations from many made-up addresses. For gmail.com or outlook.com
-- that cap let a stranger hold the whole domain with three bookings, and no
-- one else with an address there could book a demo. A public mail service's
-- addresses belong to unrelated people, so for those domains the cap counts
-- the one address instead (together with the hourly limits per address and
-- per network, and the cap per network).

create table private.shared_mail_domains (
  domain text primary key check (domain = lower(domain) and domain <> '')
);

comment on table private.shared_mail_domains is
  'Domains of public mail services: each address is its own person, so the '
  'per-domain cap on upcoming demos applies per address there.';

insert into private.shared_mail_domains (domain) values
  ('gmail.com'), ('googlemail.com'), ('outlook.com'), ('hotmail.com'), ('hotmail.co.uk'),
  ('live.com'), ('msn.com'), ('yahoo.com'), ('yahoo.co.uk'), ('ymail.com'), ('icloud.com'),
  ('me.com'), ('mac.com'), ('aol.com'), ('proton.me'), ('protonmail.com'), ('pm.me'),
  ('gmx.com'), ('gmx.net'), ('gmx.de'), ('web.de'), ('mail.com'), ('zoho.com'),
  ('yandex.com'), ('fastmail.com'), ('hey.com'), ('tutanota.com'), ('orange.fr'),
  ('free.fr'), ('laposte.net'), ('libero.it'), ('qq.com'), ('163.com'), ('naver.com')
on conflict do nothing;

create or replace function private.enforce_booking_caps(email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
  address text := lower(email);
  mail_domain text := split_part(lower(email), '@', 2);
  shared boolean;
  network text := private.network_hash(private.client_network());
begin
  select * into settings from public.site_settings where id;
  shared := exists (select 1 from private.shared_mail_domains d where d.domain = mail_domain);
  if shared then
    perform pg_advisory_xact_lock(hashtextextended('demo-address:' || address, 0));
  else
    perform pg_advisory_xact_lock(hashtextextended('demo-domain:' || mail_domain, 0));
  end if;
  perform pg_advisory_xact_lock(hashtextextended('demo-network:' || network, 0));
  if (
    select count(*) from public.demo_bookings b
    where b.status = 'confirmed' and b.ends_at > now()
      and case when shared then lower(b.email) = address
               else split_part(lower(b.email), '@', 2) = mail_domain end
  ) >= settings.demo_bookings_per_domain then
    raise exception using
      errcode = 'PT429',
      message = case when shared
        then 'You already have as many upcoming demos as we can hold for one person. '
        else 'Your company already has as many upcoming demos as we can hold for one team. '
      end
        || 'Please move one of them with the link in its email, or email '
        || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if (
    select count(*) from public.demo_bookings b
    join private.demo_booking_networks n on n.booking_id = b.id
    where b.status = 'confirmed' and b.ends_at > now() and n.network_hash = network
  ) >= settings.demo_bookings_per_network then
    raise exception using
      errcode = 'PT429',
      message = 'Your network already has as many upcoming demos as we can hold. Please move one '
        || 'of them with the link in its email, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
end
$$;
