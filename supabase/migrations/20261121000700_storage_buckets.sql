-- The product's buckets and who may touch them. Object names start with the
-- owning workspace's id: '<workspace uuid>/<file>'. CASE (not AND) guards the
-- uuid cast, because SQL does not promise to evaluate AND left to right.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  -- Call recordings, written by the phone agent (service role), read by the workspace.
  ('call-recordings', 'call-recordings', false, 200000000, array['audio/*']),
  -- Knowledge documents the agent answers from, kept by workspace owners and admins.
  ('knowledge', 'knowledge', false, 50000000, array[
    'application/pdf', 'text/plain', 'text/markdown', 'text/csv', 'text/html',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  ]),
  -- Partner marketing assets: public to download, kept by Cervana's admins.
  ('partner-assets', 'partner-assets', true, 20000000, array['image/*', 'application/pdf', 'video/mp4'])
on conflict (id) do nothing;

create policy "Workspace members read their recordings"
on storage.objects for select to authenticated
using (
  bucket_id = 'call-recordings'
  and case
    when (storage.foldername(name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then public.is_workspace_member(((storage.foldername(name))[1])::uuid)
    else false
  end
);

create policy "Workspace members read their knowledge"
on storage.objects for select to authenticated
using (
  bucket_id = 'knowledge'
  and case
    when (storage.foldername(name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then public.is_workspace_member(((storage.foldername(name))[1])::uuid)
    else false
  end
);

-- One policy for adding, changing and removing (reading is the members' policy above).
create policy "Workspace owners and admins keep knowledge"
on storage.objects for all to authenticated
using (
  bucket_id = 'knowledge'
  and case
    when (storage.foldername(name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then public.workspace_role(((storage.foldername(name))[1])::uuid) in ('owner', 'admin')
    else false
  end
);

create policy "Partners and admins list partner assets"
on storage.objects for select to authenticated
using (bucket_id = 'partner-assets' and (public.is_partner() or public.is_admin()));

create policy "Admins keep partner assets"
on storage.objects for all to authenticated
using (bucket_id = 'partner-assets' and public.is_admin());

-- Signed-in users see the product's buckets (the app shows their limits).
create policy "Signed-in users see the product's buckets"
on storage.buckets for select to authenticated
using (id in ('call-recordings', 'knowledge', 'partner-assets'));
