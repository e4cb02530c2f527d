-- Sample activity for the demo partner of `npm start` (issue 18): a new
-- database's partner portal opens on a month of referral visits, referred
-- leads in each pipeline state, a past demo, and commissions pending,
-- approved and paid through a payout, so each page of the portal (and the
-- admin's commissions) has something to show. Every sample row says it is
-- one: companies end in "(sample)", leads carry a message saying so, and the
-- payout's reference starts with SAMPLE. Called once, by the server, right
-- after it creates the demo accounts (server/auth/demo-accounts.ts); never on
-- a hosted project unless someone calls it.

create or replace function private.seed_sample_partner_activity(p_partner uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  day_offset integer;
  sample record;
  new_lead uuid;
  new_payout uuid;
  paid_total bigint;
  paid_count integer;
begin
  if p_partner is null or exists (
    select from public.leads l where l.partner_id = p_partner and l.company like '%(sample)'
  ) then
    return;
  end if;

  -- Visits through the referral link over the last 30 days.
  for day_offset in 0..29 loop
    insert into public.referral_clicks (partner_id, day, clicks)
    values (p_partner, (now() at time zone 'UTC')::date - day_offset, 2 + (day_offset * 7) % 9)
    on conflict (partner_id, day) do nothing;
  end loop;

  for sample in
    select * from (values
      ('Acme Health (sample)', 'Dana Reyes', 'dana@acmehealth.example', '51-200', '2000-10000', 'won', 4800000::bigint, 40, 'paid'),
      ('Lumen CRM (sample)', 'Omar Haddad', 'omar@lumencrm.example', '21-50', '500-2000', 'won', 2400000::bigint, 21, 'approved'),
      ('Harbor Logistics (sample)', 'Mei Tanaka', 'mei@harborlogistics.example', '200+', '10000+', 'won', 9600000::bigint, 6, 'pending'),
      ('Pinecone Dental (sample)', 'Luis Ortega', 'luis@pinecone.example', '6-20', 'under-500', 'qualified', null::bigint, 12, null),
      ('Brightline Insurance (sample)', 'Ava Novak', 'ava@brightline.example', '51-200', '2000-10000', 'contacted', null::bigint, 4, null),
      ('Copperleaf Retail (sample)', 'Sam Okafor', 'sam@copperleaf.example', '21-50', '500-2000', 'new', null::bigint, 1, null),
      ('Northgate Telecom (sample)', 'Iris Berg', 'iris@northgate.example', '200+', '10000+', 'lost', null::bigint, 25, null)
    ) as s (company, full_name, email, team_size, volume, status, deal_cents, days_ago, commission_state)
  loop
    insert into public.leads (
      full_name, email, company, team_size, monthly_call_volume, message, consent_at, source,
      partner_id, created_at
    ) values (
      sample.full_name, sample.email, sample.company, sample.team_size, sample.volume,
      'Sample lead for the demo partner account.', now() - make_interval(days => sample.days_ago),
      'admin', p_partner, now() - make_interval(days => sample.days_ago)
    )
    returning id into new_lead;
    if sample.status <> 'new' then
      -- The trigger on leads writes the commission of a won one.
      update public.leads l
      set status = sample.status, deal_value_cents = sample.deal_cents
      where l.id = new_lead;
    end if;
    if sample.commission_state in ('approved', 'paid') then
      update public.commissions c
      set status = 'approved', approved_at = now() - make_interval(days => greatest(sample.days_ago - 5, 0))
      where c.lead_id = new_lead and c.status = 'pending';
    end if;
  end loop;

  -- Each deal was won a few days after it arrived, not today.
  update public.commissions c
  set won_at = l.created_at + interval '3 days',
    period = date_trunc('month', (l.created_at + interval '3 days') at time zone 'UTC')::date
  from public.leads l
  where l.id = c.lead_id and c.partner_id = p_partner and l.company like '%(sample)';

  -- The oldest approved commission was paid in a sample payout.
  select count(*), sum(c.amount_cents) into paid_count, paid_total
  from public.commissions c
  join public.leads l on l.id = c.lead_id
  where c.partner_id = p_partner and l.company = 'Acme Health (sample)';
  if paid_count > 0 then
    insert into public.payouts (
      partner_id, currency, amount_cents, commission_count, status, reference, paid_on, paid_at
    ) values (
      p_partner, 'USD', paid_total, paid_count, 'paid', 'SAMPLE-PAYOUT-001',
      (now() at time zone 'UTC')::date - 20, now() - interval '20 days'
    )
    returning id into new_payout;
    update public.commissions c
    set status = 'paid', payout_id = new_payout, paid_at = now() - interval '20 days'
    from public.leads l
    where l.id = c.lead_id and c.partner_id = p_partner and l.company = 'Acme Health (sample)';
  end if;
end
$$;

comment on function private.seed_sample_partner_activity(uuid) is
  'Sample referrals, leads and commissions for the demo partner of a new embedded database. Idempotent.';

revoke execute on function private.seed_sample_partner_activity(uuid) from public, anon, authenticated;
