-- Loaded after fixture.sql by the /rest/v1 integration tests: what the base
-- fixture lacks to exercise ranges, row-level security, privileges, read-only
-- transactions and custom errors.
create table public.reservations (
  id serial primary key,
  room text not null,
  during int4range not null,
  confirmed boolean
);
insert into public.reservations (room, during, confirmed) values
  ('blue', '[1,5)', true), ('blue', '[5,9)', false), ('red', '[3,12)', null), ('green', '[20,30)', true);

-- Each signed-in user sees and writes only their own notes; anon sees none.
create table public.notes (
  id serial primary key,
  owner uuid not null default auth.uid(),
  body text not null
);
alter table public.notes enable row level security;
create policy notes_owner on public.notes for all to authenticated
  using (owner = auth.uid()) with check (owner = auth.uid());
insert into public.notes (owner, body) values ('00000000-0000-0000-0000-000000000001', 'not yours');

-- Only service_role may touch this table.
create table public.vault (id integer primary key, secret text not null);
revoke all on public.vault from anon, authenticated;
insert into public.vault values (1, 'the combination');

create function public.whoami() returns text language sql stable as $$ select current_user::text $$;
create function public.bump() returns integer language sql volatile as $$
  update public.counters set value = value + 1 where key = 'touches' returning value
$$;
create function public.numbers(n integer) returns setof integer language sql immutable as $$
  select generate_series(1, n)
$$;
create function public.teapot() returns void language plpgsql as $$
begin raise sqlstate 'PT418' using message = 'I am a teapot', detail = 'short and stout'; end $$;
create function public.division() returns void language plpgsql as $$
begin raise exception 'no dividing' using errcode = '22012', hint = 'use multiplication'; end $$;
create function public.sum_all(xs integer[]) returns integer language sql immutable as $$
  select coalesce(sum(x), 0)::integer from unnest(xs) as x
$$;

-- Views that rename their table's columns, and a view over a view: they embed
-- and are embedded through their tables' foreign keys.
create view public.book_cards as select b.id as book_id, b.title as heading, b.author_id as writer from public.books b;
create view public.card_titles as select book_id, heading from public.book_cards;
