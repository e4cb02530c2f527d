-- The data API's computed relationships, spreads on to-many relations and
-- aggregates inside embeds (computed-relationships.int.test.ts): channels,
-- their messages and the messages' authors, with functions that relate them.
create table public.channels (
  id integer primary key,
  slug text not null unique
);
create table public.chat_users (
  id integer primary key,
  username text not null
);
create table public.messages (
  id integer primary key,
  channel_id integer not null references public.channels (id),
  author_id integer references public.chat_users (id),
  message text not null,
  score integer not null default 0,
  -- A private message is seen by its owner only (row-level security below).
  owner uuid,
  is_private boolean not null default false
);
create table public.reactions (
  id integer primary key,
  message_id integer not null references public.messages (id),
  emoji text not null
);
alter table public.messages enable row level security;
create policy messages_read on public.messages for select
  using (not is_private or owner = auth.uid());

-- What a function with side effects writes, if it ever runs.
create table public.embed_audit (id serial primary key, note text not null);

-- To-many: a channel's messages.
create function public.get_messages(public.channels) returns setof public.messages
  language sql stable as $$ select * from public.messages where channel_id = $1.id $$;
-- Overloaded on another row type: an author's messages.
create function public.get_messages(public.chat_users) returns setof public.messages
  language sql stable as $$ select * from public.messages where author_id = $1.id $$;
-- Two arguments: not a computed relationship, and no obstacle to the one above.
create function public.get_messages(public.channels, integer) returns setof public.messages
  language sql stable as $$ select * from public.messages where channel_id = $1.id and score >= $2 $$;
-- To-one through SETOF ... ROWS 1.
create function public.first_message(public.channels) returns setof public.messages rows 1
  language sql stable as $$ select * from public.messages where channel_id = $1.id order by id limit 1 $$;
-- To-one through a single composite.
create function public.home_channel(public.messages) returns public.channels
  language sql stable as $$ select * from public.channels where id = $1.channel_id $$;
-- Named like the related table: replaces the foreign-key relationship chat_users -> messages.
create function public.messages(public.chat_users) returns setof public.messages
  language sql stable as $$ select * from public.messages where author_id = $1.id and score >= 5 $$;
-- Side effects: writes to the audit table before returning rows.
create function public.logged_messages(public.channels) returns setof public.messages
  language plpgsql volatile as $$
begin
  insert into public.embed_audit (note) values ('logged_messages ran for ' || $1.slug);
  return query select * from public.messages where channel_id = $1.id;
end $$;

-- Not exposed: a function in a schema outside REST_SCHEMAS is never embeddable.
create schema embed_hidden;
grant usage on schema embed_hidden to anon, authenticated;
create function embed_hidden.hidden_messages(public.channels) returns setof public.messages
  language sql stable as $$ select * from public.messages where channel_id = $1.id $$;
grant execute on function embed_hidden.hidden_messages(public.channels) to anon, authenticated;

insert into public.channels values (1, 'general'), (2, 'random'), (3, 'empty');
insert into public.chat_users values (1, 'ada'), (2, 'grace'), (3, 'silent');
insert into public.messages (id, channel_id, author_id, message, score, is_private) values
  (1, 1, 1, 'hello', 5, false),
  (2, 1, 2, 'hi ada', 2, false),
  (3, 1, 1, 'how are you', 7, false),
  (4, 2, 2, 'random thought', 1, false),
  (5, 2, 1, 'a private note', 9, true);
insert into public.reactions values (1, 1, 'wave'), (2, 1, 'heart'), (3, 3, 'thumbs'), (4, 4, 'eyes');

-- Aggregates on, as Supabase turns them on (PostgREST's in-database setting).
do $$
begin
  execute format('alter role %I in database %I set pgrst.db_aggregates_enabled to %L',
    current_user, current_database(), 'true');
end
$$;

-- A function returning channels: its rows embed computed relationships too (called on the CTE's row).
create function public.busy_channels() returns setof public.channels
  language sql stable as $$ select * from public.channels where id < 3 order by id $$;
