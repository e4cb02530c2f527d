-- A small schema that exercises every part of the data API's grammar: keys of
-- every kind, a junction table, a self reference, a view, and functions.
create table public.authors (
  id serial primary key,
  name text not null,
  email text unique,
  meta jsonb,
  tags text[] default '{}',
  born date,
  created_at timestamptz not null default '2026-01-01T00:00:00Z'
);
create table public.author_bios (
  author_id integer primary key references public.authors (id) on delete cascade,
  bio text
);
create table public.books (
  id serial primary key,
  author_id integer references public.authors (id),
  editor_id integer references public.authors (id),
  title text not null,
  price numeric(8, 2),
  pages integer,
  published date,
  summary text,
  search tsvector generated always as (to_tsvector('english', coalesce(title, '') || ' ' || coalesce(summary, ''))) stored
);
create table public.reviews (
  id serial primary key,
  book_id integer not null references public.books (id) on delete cascade,
  stars integer not null check (stars between 1 and 5),
  body text
);
create table public.genres (
  id serial primary key,
  name text not null unique
);
create table public.book_genres (
  book_id integer references public.books (id) on delete cascade,
  genre_id integer references public.genres (id) on delete cascade,
  primary key (book_id, genre_id)
);
create table public.employees (
  id serial primary key,
  name text not null,
  manager_id integer references public.employees (id)
);
create table public.counters (
  key text primary key,
  value integer not null default 0,
  note text default 'fresh'
);
create view public.cheap_books as select id, title, price, author_id from public.books where price < 10;

create function public.add(a integer, b integer) returns integer language sql immutable as $$ select a + b $$;
create function public.add_default(a integer, b integer default 10) returns integer language sql immutable as $$ select a + b $$;
-- How many times it ran in this transaction, itself included: a scalar call must run once.
create function public.runs_in_transaction() returns integer language plpgsql stable as $$
begin
  perform set_config('test.runs', (coalesce(nullif(current_setting('test.runs', true), ''), '0')::integer + 1)::text, true);
  return current_setting('test.runs')::integer;
end
$$;
create function public.books_by(author text) returns setof public.books language sql stable as $$
  select b.* from public.books b join public.authors a on a.id = b.author_id where a.name = author order by b.id
$$;
create function public.first_book() returns public.books language sql stable as $$ select * from public.books order by id limit 1 $$;
create function public.touch() returns void language sql as $$ update public.counters set value = value + 1 where key = 'touches' $$;
create function public.echo(payload json) returns json language sql immutable as $$ select payload $$;
create function public.whole(json) returns json language sql immutable as $$ select $1 $$;
create function public.stats(out total integer, out priciest numeric) language sql stable as $$
  select count(*)::integer, max(price) from public.books
$$;
create function public.prices() returns table(title text, price numeric) language sql stable as $$
  select title, price from public.books order by id
$$;
create function public.title_upper(public.books) returns text language sql immutable as $$ select upper($1.title) $$;
create function public.overloaded(a integer) returns text language sql immutable as $$ select 'int' $$;
create function public.overloaded(a text) returns text language sql immutable as $$ select 'text' $$;
create function public.fail() returns void language plpgsql as $$ begin raise exception 'it failed' using hint = 'try again'; end $$;

insert into public.authors (name, email, meta, tags, born) values
  ('Ursula', 'ursula@example.com', '{"country": "US", "awards": {"hugo": 5}}', '{scifi,fantasy}', '1929-10-21'),
  ('Octavia', 'octavia@example.com', '{"country": "US", "awards": {"hugo": 2}}', '{scifi}', '1947-06-22'),
  ('Stanislaw', null, '{"country": "PL"}', '{scifi,satire}', '1921-09-12'),
  ('Nobody', 'nobody@example.com', null, '{}', null);
insert into public.author_bios values (1, 'Wrote Earthsea.'), (2, 'Wrote Kindred.');
insert into public.books (author_id, editor_id, title, price, pages, published, summary) values
  (1, 2, 'A Wizard of Earthsea', 9.99, 183, '1968-11-01', 'A young wizard and his shadow'),
  (1, null, 'The Left Hand of Darkness', 12.50, 304, '1969-03-01', 'An envoy on a winter planet'),
  (2, 1, 'Kindred', 8.00, 264, '1979-06-01', 'A writer pulled back in time'),
  (3, null, 'Solaris', 11.00, 204, '1961-01-01', 'A sentient ocean planet'),
  (3, null, 'The Cyberiad', null, 295, '1965-01-01', 'Robot constructors and their machines');
insert into public.reviews (book_id, stars, body) values
  (1, 5, 'Classic'), (1, 4, 'Lovely'), (3, 5, 'Unforgettable'), (4, 3, null);
insert into public.genres (name) values ('fantasy'), ('science fiction'), ('satire');
insert into public.book_genres values (1, 1), (2, 2), (3, 2), (4, 2), (5, 2), (5, 3);
insert into public.employees (name, manager_id) values ('Ada', null), ('Grace', 1), ('Linus', 1), ('Ken', 2);
insert into public.counters (key, value) values ('touches', 0);
