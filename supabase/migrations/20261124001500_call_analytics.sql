-- The dashboard's numbers: the calls of a workspace in a period with the
-- dashboard's filters (filtered_calls), the KPI cards with the period before
-- (call_kpis), and calls per local day by outcome (call_trends). All three are
-- security invoker, so the calls table's row-level security decides what a
-- caller counts: a member of another workspace gets zeros and nothing else.
-- The KPIs and trends are computed over filtered_calls itself, so they agree
-- exactly with the table (and its CSV export) for the same period and filters.
-- Runs unchanged on the embedded PGlite, PostgreSQL 15+ and a hosted Supabase
-- project (no extensions).

-- ---------------------------------------------------------------------------
-- The filters, checked once per statement.
--
-- p_filters is a JSON object; every key is optional and null means "no filter":
--   q          text: full-text search (websearch syntax: words, "a phrase",
--              or, -word) over the summary and the transcript; blank = none
--   outcome    array of resolved | escalated | voicemail | missed; [] = none
--   sentiment  array of positive | neutral | negative; [] = none
--   direction  inbound | outbound
--   number     a phone number, with or without the leading + (spaces, dots,
--              dashes and parentheses ignored): calls from or to it
-- Anything else (an unknown key, a value of the wrong JSON type, an unknown
-- outcome...) is refused with SQLSTATE 22023 (HTTP 400 through the data API),
-- a sentence naming the filter, and the filter's key as the error's detail.
-- ---------------------------------------------------------------------------

create or replace function public.call_filters(
  p_workspace_id uuid,
  p_from timestamptz,
  p_to timestamptz,
  p_filters jsonb,
  p_max_days integer,
  out workspace_id uuid,
  out from_at timestamptz,
  out to_at timestamptz,
  out query tsquery,
  out outcomes text[],
  out sentiments text[],
  out direction text,
  out phone_number text
)
language plpgsql
stable
set search_path = ''
as $$
declare
  filters jsonb := coalesce(p_filters, '{}'::jsonb);
  filter_key text;
  filter_value jsonb;
  allowed text[];
  list text[];
  normalized text;
begin
  if p_workspace_id is null then
    raise exception 'Choose a workspace (p_workspace_id).'
      using errcode = '22023', detail = 'p_workspace_id';
  end if;
  if p_from is null or p_to is null or not isfinite(p_from) or not isfinite(p_to) then
    raise exception 'The period needs a start (p_from) and an end (p_to).'
      using errcode = '22023', detail = 'period';
  end if;
  if p_from >= p_to then
    raise exception 'The period must start before it ends.'
      using errcode = '22023', detail = 'period';
  end if;
  -- An hour more, for a period of local days that gains one when summer time ends.
  if p_to - p_from > make_interval(days => p_max_days, hours => 1) then
    raise exception 'The period can be at most % days long.', p_max_days
      using errcode = '22023', detail = 'period';
  end if;
  if jsonb_typeof(filters) <> 'object' then
    raise exception 'The filters (p_filters) must be a JSON object.'
      using errcode = '22023', detail = 'p_filters';
  end if;

  workspace_id := p_workspace_id;
  from_at := p_from;
  to_at := p_to;

  for filter_key, filter_value in select e.key, e.value from jsonb_each(filters) e loop
    continue when filter_value = 'null'::jsonb;
    case filter_key
      when 'q' then
        if jsonb_typeof(filter_value) <> 'string' then
          raise exception 'The search filter "q" must be a text.'
            using errcode = '22023', detail = 'q';
        end if;
        if char_length(filter_value #>> '{}') > 200 then
          raise exception 'The search filter "q" can be at most 200 characters long.'
            using errcode = '22023', detail = 'q';
        end if;
        -- Blank, or nothing but stop words and punctuation: no search.
        if btrim(filter_value #>> '{}') <> '' then
          query := websearch_to_tsquery('english'::regconfig, filter_value #>> '{}');
          if numnode(query) = 0 then
            query := null;
          end if;
        end if;
      when 'outcome', 'sentiment' then
        allowed := case filter_key
          when 'outcome' then array['resolved', 'escalated', 'voicemail', 'missed']
          else array['positive', 'neutral', 'negative']
        end;
        if jsonb_typeof(filter_value) <> 'array' or exists (
          select
          from jsonb_array_elements(filter_value) element
          where jsonb_typeof(element) <> 'string' or not (element #>> '{}' = any (allowed))
        ) then
          raise exception 'The filter "%" must be a list of: %.', filter_key, array_to_string(allowed, ', ')
            using errcode = '22023', detail = filter_key;
        end if;
        select array_agg(distinct element) into list
        from jsonb_array_elements_text(filter_value) element;
        if filter_key = 'outcome' then
          outcomes := list;
        else
          sentiments := list;
        end if;
      when 'direction' then
        if jsonb_typeof(filter_value) <> 'string'
           or not (filter_value #>> '{}' in ('inbound', 'outbound', '')) then
          raise exception 'The filter "direction" must be inbound or outbound.'
            using errcode = '22023', detail = 'direction';
        end if;
        direction := nullif(filter_value #>> '{}', '');
      when 'number' then
        if jsonb_typeof(filter_value) <> 'string' then
          raise exception 'The filter "number" must be a phone number such as +14155550123.'
            using errcode = '22023', detail = 'number';
        end if;
        normalized := regexp_replace(filter_value #>> '{}', '[[:space:]().-]', '', 'g');
        if normalized <> '' then
          if left(normalized, 1) <> '+' then
            normalized := '+' || normalized;
          end if;
          if normalized !~ '^\+[1-9][0-9]{6,14}$' then
            raise exception 'The filter "number" must be a phone number such as +14155550123.'
              using errcode = '22023', detail = 'number';
          end if;
          phone_number := normalized;
        end if;
      else
        raise exception 'There is no filter "%": use q, outcome, sentiment, direction or number.',
          left(filter_key, 40)
          using errcode = '22023', detail = left(filter_key, 40);
    end case;
  end loop;
end
$$;

comment on function public.call_filters(uuid, timestamptz, timestamptz, jsonb, integer) is
  'Checks a period and the dashboard''s filters (see filtered_calls) and returns them typed; '
  'raises 22023 naming the filter (also in the error''s detail) when one is invalid.';

-- ---------------------------------------------------------------------------
-- The calls of a workspace in [p_from, p_to) that match the filters.
--
-- One SELECT in a non-strict, stable, security invoker SQL function without
-- SET options: PostgreSQL inlines it into the statement that calls it, so the
-- data API's select, filters, order and limit on top (the calls table's keyset
-- pages and its CSV export) plan together with it on the calls index
-- (workspace_id, started_at desc, id desc), under the caller's row-level
-- security. The filters are checked and parsed once (call_filters) and the
-- calls are read through them: every condition on the calls table compares a
-- column with a value computed once.
--
-- The period may be up to 733 days long, so that call_kpis can read a period of
-- 366 days and the one before it in one go; call_kpis and call_trends allow 366.
-- ---------------------------------------------------------------------------

create or replace function public.filtered_calls(
  p_workspace_id uuid,
  p_from timestamptz,
  p_to timestamptz,
  p_filters jsonb default '{}'::jsonb
)
returns setof public.calls
language sql
stable
as $$
  select c.*
  from public.call_filters(p_workspace_id, p_from, p_to, p_filters, 733) f
  join public.calls c
    on c.workspace_id = f.workspace_id
   and c.started_at >= f.from_at
   and c.started_at < f.to_at
  where (f.query is null or c.search @@ f.query)
    and (f.outcomes is null or c.outcome = any (f.outcomes))
    and (f.sentiments is null or c.sentiment = any (f.sentiments))
    and (f.direction is null or c.direction = f.direction)
    and (f.phone_number is null or c.from_number = f.phone_number or c.to_number = f.phone_number)
$$;

comment on function public.filtered_calls(uuid, timestamptz, timestamptz, jsonb) is
  'The workspace''s calls started in [p_from, p_to) that match p_filters '
  '({q, outcome[], sentiment[], direction, number}); order, page and export them with the data API.';

-- ---------------------------------------------------------------------------
-- The KPI cards: {current: K, previous: K}, the previous period being the one
-- of the same length right before p_from, read in one scan.
-- K = {calls, answered, resolved, escalated, voicemail, missed,
--      resolution_rate, avg_handle_seconds, handled_seconds}
-- answered = every outcome but missed; resolution_rate = resolved / answered
-- and avg_handle_seconds = handled_seconds / answered (null without answered
-- calls); handled_seconds = the duration of the answered calls.
-- ---------------------------------------------------------------------------

create or replace function public.call_kpis(
  p_workspace_id uuid,
  p_from timestamptz,
  p_to timestamptz,
  p_filters jsonb default '{}'::jsonb
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  result jsonb;
begin
  perform public.call_filters(p_workspace_id, p_from, p_to, p_filters, 366);

  -- One pass over both periods: conditional aggregates, no grouping or sorting.
  select jsonb_object_agg(
    period.name,
    jsonb_build_object(
      'calls', period.calls,
      'answered', period.answered,
      'resolved', period.resolved,
      'escalated', period.escalated,
      'voicemail', period.voicemail,
      'missed', period.missed,
      'resolution_rate', case when period.answered > 0 then period.resolved::numeric / period.answered end,
      'avg_handle_seconds',
        case when period.answered > 0 then period.handled_seconds::numeric / period.answered end,
      'handled_seconds', period.handled_seconds
    )
  )
  into result
  from (
    select
      count(*) filter (where c.started_at >= p_from) as calls,
      count(*) filter (where c.started_at >= p_from and c.outcome <> 'missed') as answered,
      count(*) filter (where c.started_at >= p_from and c.outcome = 'resolved') as resolved,
      count(*) filter (where c.started_at >= p_from and c.outcome = 'escalated') as escalated,
      count(*) filter (where c.started_at >= p_from and c.outcome = 'voicemail') as voicemail,
      count(*) filter (where c.started_at >= p_from and c.outcome = 'missed') as missed,
      coalesce(sum(c.duration_seconds) filter (where c.started_at >= p_from and c.outcome <> 'missed'), 0)
        as handled_seconds,
      count(*) filter (where c.started_at < p_from) as previous_calls,
      count(*) filter (where c.started_at < p_from and c.outcome <> 'missed') as previous_answered,
      count(*) filter (where c.started_at < p_from and c.outcome = 'resolved') as previous_resolved,
      count(*) filter (where c.started_at < p_from and c.outcome = 'escalated') as previous_escalated,
      count(*) filter (where c.started_at < p_from and c.outcome = 'voicemail') as previous_voicemail,
      count(*) filter (where c.started_at < p_from and c.outcome = 'missed') as previous_missed,
      coalesce(sum(c.duration_seconds) filter (where c.started_at < p_from and c.outcome <> 'missed'), 0)
        as previous_handled_seconds
    from public.filtered_calls(p_workspace_id, p_from - (p_to - p_from), p_to, p_filters) c
  ) k
  cross join lateral (
    values
      ('current', k.calls, k.answered, k.resolved, k.escalated, k.voicemail, k.missed, k.handled_seconds),
      ('previous', k.previous_calls, k.previous_answered, k.previous_resolved, k.previous_escalated,
       k.previous_voicemail, k.previous_missed, k.previous_handled_seconds)
  ) period (name, calls, answered, resolved, escalated, voicemail, missed, handled_seconds);

  return result;
end
$$;

comment on function public.call_kpis(uuid, timestamptz, timestamptz, jsonb) is
  'The dashboard''s KPIs for [p_from, p_to) and the period of the same length before it, '
  'over filtered_calls: {current: K, previous: K}.';

-- ---------------------------------------------------------------------------
-- Calls per local day by outcome: one row per day of the period in the
-- caller's time zone (an IANA name such as Europe/Paris), days without calls
-- included with zeros. The days are those of p_from to the instant before p_to.
-- ---------------------------------------------------------------------------

create or replace function public.call_trends(
  p_workspace_id uuid,
  p_from timestamptz,
  p_to timestamptz,
  p_filters jsonb default '{}'::jsonb,
  p_time_zone text default 'UTC'
)
returns table (day date, resolved integer, escalated integer, voicemail integer, missed integer)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  first_day date;
  last_day date;
begin
  perform public.call_filters(p_workspace_id, p_from, p_to, p_filters, 366);
  if p_time_zone is null or p_time_zone !~ '^[A-Za-z][A-Za-z0-9_+/-]{0,63}$' then
    raise exception 'Unknown time zone: use a name such as Europe/Paris.'
      using errcode = '22023', detail = 'p_time_zone';
  end if;
  begin
    first_day := (p_from at time zone p_time_zone)::date;
  exception when invalid_parameter_value then
    raise exception 'Unknown time zone: use a name such as Europe/Paris.'
      using errcode = '22023', detail = 'p_time_zone';
  end;
  last_day := ((p_to at time zone p_time_zone) - interval '1 microsecond')::date;

  return query
    select
      days.day,
      coalesce(k.resolved, 0)::integer,
      coalesce(k.escalated, 0)::integer,
      coalesce(k.voicemail, 0)::integer,
      coalesce(k.missed, 0)::integer
    from (
      select first_day + offset_days as day from generate_series(0, last_day - first_day) offset_days
    ) days
    left join (
      select
        (c.started_at at time zone p_time_zone)::date as day,
        count(*) filter (where c.outcome = 'resolved') as resolved,
        count(*) filter (where c.outcome = 'escalated') as escalated,
        count(*) filter (where c.outcome = 'voicemail') as voicemail,
        count(*) filter (where c.outcome = 'missed') as missed
      from public.filtered_calls(p_workspace_id, p_from, p_to, p_filters) c
      group by 1
    ) k on k.day = days.day
    order by days.day;
end
$$;

comment on function public.call_trends(uuid, timestamptz, timestamptz, jsonb, text) is
  'Calls per local day (p_time_zone) of [p_from, p_to) by outcome, over filtered_calls; '
  'days without calls included.';

-- ---------------------------------------------------------------------------
-- Access: signed-in users (row-level security decides which calls they see)
-- and the server; never anon.
-- ---------------------------------------------------------------------------

revoke execute on function
  public.call_filters(uuid, timestamptz, timestamptz, jsonb, integer),
  public.filtered_calls(uuid, timestamptz, timestamptz, jsonb),
  public.call_kpis(uuid, timestamptz, timestamptz, jsonb),
  public.call_trends(uuid, timestamptz, timestamptz, jsonb, text)
from public, anon;
grant execute on function
  public.call_filters(uuid, timestamptz, timestamptz, jsonb, integer),
  public.filtered_calls(uuid, timestamptz, timestamptz, jsonb),
  public.call_kpis(uuid, timestamptz, timestamptz, jsonb),
  public.call_trends(uuid, timestamptz, timestamptz, jsonb, text)
to authenticated, service_role;
