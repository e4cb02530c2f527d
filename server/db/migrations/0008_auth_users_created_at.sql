-- Sign-ups over a period (the admin overview, public.admin_overview) read
-- auth.users by created_at. GoTrue has no index for that; ours is the server's
-- own auth schema, so it gets one here rather than from a product migration,
-- which must not create anything in the auth schema of a hosted project.

create index users_created_at_idx on auth.users (created_at);
