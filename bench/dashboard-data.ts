// The calls the dashboard benchmark (bench/dashboard.ts) loads into one
// workspace: set-based SQL, run on the stopped server's database.

/** A word in about one answered call in twelve (the "Refund" topic). */
export const SEARCH = 'refund';

export const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const textArray = (values: string[]) => `array[${values.map(literal).join(', ')}]::text[]`;

/** [topic, summary, what callers say] */
const TOPICS: [string, string, string[]][] = [
  [
    'Billing',
    'The caller asked why the latest invoice showed more seats than expected; the agent removed unused seats from the next invoice.',
    ['Our invoice shows more seats than we use.', 'Can you check the billing contact on file?'],
  ],
  [
    'Refund',
    'The caller asked for a refund of a duplicate charge; the agent confirmed the refund to the original card within five days.',
    ['We were charged twice this month and need a refund.', 'When will the refund arrive?'],
  ],
  [
    'Sign-in',
    'The caller was locked out after failed single sign-on attempts; the agent unlocked the account and confirmed the sign-in.',
    ['Single sign-on keeps sending me back to the login page.', 'I think my account is locked.'],
  ],
  [
    'Outage',
    'The caller reported that the platform was down for two hours and the renewal is at risk; handed to the customer success manager.',
    ['Your platform was down for almost two hours.', 'We are reconsidering our renewal.'],
  ],
  [
    'Export',
    'The caller needed the quarterly report as a spreadsheet; the agent scheduled a weekly export to the team inbox.',
    ['How do I export the quarterly report?', 'Can it arrive every Monday?'],
  ],
  [
    'Renewal',
    'The caller asked about pricing for the renewal with more seats; the agent shared the tiers and booked a call with the account manager.',
    ['Our contract renews next month.', 'What would fifty more seats cost?'],
  ],
  [
    'Integration',
    'The caller asked whether the Salesforce sync was healthy; the agent found a stale token and walked them through reconnecting it.',
    ['The Salesforce sync stopped yesterday.', 'Do I need to reconnect something?'],
  ],
  [
    'Onboarding',
    'The caller wanted to add a new team; the agent created the workspace group and sent invitations to six people.',
    ['We are onboarding our support team.', 'Can you send the invitations for me?'],
  ],
  [
    'Cancellation',
    'The caller wanted to cancel an add-on; the agent explained the notice period and handed the call to the customer success manager.',
    ['I want to cancel the analytics add-on.', 'Is there a notice period?'],
  ],
  [
    'Shipping',
    'The caller asked where the hardware order was; the agent shared the tracking number and the delivery date.',
    ['Where is our headset order?', 'We need it before Friday.'],
  ],
  [
    'Password',
    'The caller forgot their password; the agent sent a reset link and confirmed it arrived.',
    ['I forgot my password again.', 'The reset email did not arrive.'],
  ],
  [
    'Feature request',
    'The caller asked for a dark mode in the mobile app; the agent logged the request and shared the roadmap page.',
    ['Is dark mode coming to the mobile app?', 'Where can I see the roadmap?'],
  ],
];

const AGENT_LINES = [
  'Thanks for calling. How can I help you today?',
  'I have pulled up your account.',
  'Let me check that for you.',
  'That is done. Is there anything else I can help with?',
  'I understand, and I am sorry about the trouble.',
  'I have sent a confirmation to the email on file.',
  'You are welcome. Have a great day.',
];

export function seedSql(workspaceId: string, calls: number): string {
  const ws = `${literal(workspaceId)}::uuid`;
  const callerLines = TOPICS.map(([, , lines]) => lines.join('|'));
  return `
delete from public.calls where workspace_id = ${ws};
insert into private.ingestion_limits (workspace_id, per_minute) values (${ws}, 10000000)
  on conflict (workspace_id) do update set per_minute = excluded.per_minute;
insert into public.calls (
  workspace_id, provider_call_id, direction, from_number, to_number, started_at,
  duration_seconds, outcome, sentiment, summary, extracted, transcript, agent_id, is_sample
)
select
  ${ws},
  'bench-' || g.n,
  x.direction,
  case x.direction when 'inbound' then x.customer else '+18005550100' end,
  case x.direction when 'inbound' then '+18005550100' else x.customer end,
  case when x.started_at > now() then x.started_at - interval '7 days' else x.started_at end,
  case x.outcome
    when 'missed' then 0
    when 'voicemail' then 15 + floor(x.r_length * 45)::integer
    else 45 + floor(power(x.r_length, 2) * 900)::integer
  end,
  x.outcome,
  case
    when x.outcome = 'missed' then null
    when x.r_sentiment < 0.45 then 'positive'
    when x.r_sentiment < 0.85 then 'neutral'
    else 'negative'
  end,
  case when x.outcome <> 'missed' then (${textArray(TOPICS.map(([, summary]) => summary))})[x.topic] end,
  case when x.outcome = 'missed' then '{}'::jsonb
    else jsonb_build_object('topic', (${textArray(TOPICS.map(([topic]) => topic))})[x.topic],
      'account', 'Account ' || (g.n % 500)) end,
  case when x.outcome = 'missed' then '[]'::jsonb else (
    select jsonb_agg(jsonb_build_object(
      'speaker', case when s % 2 = 1 then 'agent' else 'caller' end,
      'start_ms', (s - 1) * 7000 + 250,
      'end_ms', s * 7000 - 400,
      'text', case when s % 2 = 1
        then (${textArray(AGENT_LINES)})[1 + floor(random() * ${AGENT_LINES.length})::integer]
        else split_part((${textArray(callerLines)})[x.topic], '|', 1 + (s / 2) % 2)
      end
    ) order by s)
    from generate_series(1, x.segments) s
  ) end,
  (select a.id from public.agents a where a.workspace_id = ${ws} order by a.created_at, a.id limit 1),
  false
from generate_series(1, ${calls}) g (n)
cross join lateral (
  select
    g.n as k,
    case when random() < 0.85 then 'inbound' else 'outbound' end as direction,
    '+1' || (array['212', '312', '415', '617', '206', '512', '303', '404', '646', '720'])[1 + g.n % 10]
      || lpad(floor(power(random(), 1.5) * 3000)::integer::text, 7, '5') as customer,
    date_trunc('day', now()) - floor(random() * 60)::integer * interval '1 day'
      + interval '8 hours' + random() * interval '10 hours' as started_at,
    case
      when random() < 0.65 then 'resolved'
      when random() < 0.45 then 'escalated'
      when random() < 0.5 then 'voicemail'
      else 'missed'
    end as outcome,
    random() as r_length,
    random() as r_sentiment,
    1 + floor(random() * ${TOPICS.length})::integer as topic,
    3 + floor(random() * 6)::integer as segments
) x;
analyze public.calls;
`;
}
