-- Knowledge documents (issue 16, decision 020): the files a workspace's phone
-- agent answers from, kept in the private `knowledge` bucket as
-- '<workspace uuid>/<file name>', one level deep. Storage is the whole record
-- (no table beside it), so there is nothing to keep in step and nothing that
-- can be half-stored.

-- The four formats the agent reads, and 25 MiB (what the app calls "25 MB").
update storage.buckets
set file_size_limit = 26214400,
    allowed_mime_types = array[
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/plain',
      'text/markdown'
    ]
where id = 'knowledge';

-- Writing: owners and admins of the workspace, as before, and what they write
-- must be a document of the library:
--   * exactly '<workspace uuid>/<file name>', no deeper folders;
--   * a file name of 1 to 200 characters from a set that is safe in a URL,
--     in a download on Windows, macOS and Linux, and in Storage's key rules,
--     not starting with a dot, a space or another sign;
--   * ending in .pdf, .docx, .txt, .md or .markdown (any case);
--   * stored with the type of its extension, once the type is known (the
--     rolled-back check before an upload's bytes are read has none yet; the
--     write after them has it, and a rename keeps the object's type, so a
--     PDF cannot be renamed to notes.txt).
-- USING keeps the old rule (the workspace folder), so an owner can still
-- read, rename and delete anything stored under the earlier, looser rules.
-- CASE, not AND, guards the uuid cast: SQL does not promise AND's order.

drop policy "Workspace owners and admins keep knowledge" on storage.objects;

create policy "Workspace owners and admins keep knowledge"
on storage.objects for all to authenticated
using (
  bucket_id = 'knowledge'
  and case
    when (storage.foldername(name))[1] ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then public.workspace_role(((storage.foldername(name))[1])::uuid) in ('owner', 'admin')
    else false
  end
)
with check (
  bucket_id = 'knowledge'
  and case
    when name ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[A-Za-z0-9_(][A-Za-z0-9 _.,()&+''!@$=;-]{0,199}$'
      and (
        case lower(substring(name from '\.([A-Za-z]+)$'))
          when 'pdf' then 'application/pdf'
          when 'docx' then 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
          when 'txt' then 'text/plain'
          when 'md' then 'text/markdown'
          when 'markdown' then 'text/markdown'
        end
      ) = coalesce(
        nullif(lower(trim(split_part(metadata ->> 'mimetype', ';', 1))), ''),
        case lower(substring(name from '\.([A-Za-z]+)$'))
          when 'pdf' then 'application/pdf'
          when 'docx' then 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
          when 'txt' then 'text/plain'
          when 'md' then 'text/markdown'
          when 'markdown' then 'text/markdown'
        end
      )
      then public.workspace_role(substr(name, 1, 36)::uuid) in ('owner', 'admin')
    else false
  end
);
