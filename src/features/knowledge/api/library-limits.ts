import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { KNOWLEDGE_BUCKET, type LibraryLimits } from '../model/document-rules';
import { knowledgeKeys } from './query-keys';

const bucketSchema = z.object({
  file_size_limit: z.number().nullable().optional(),
  allowed_mime_types: z.array(z.string()).nullable().optional(),
});

/** The bucket's own size and type limits, so the page states the rules the server applies. */
export async function getLibraryLimits(): Promise<LibraryLimits> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.storage.getBucket(KNOWLEDGE_BUCKET);
  if (error) throw error;
  const bucket = bucketSchema.parse(data);
  return {
    maxBytes: bucket.file_size_limit ?? null,
    mimeTypes: bucket.allowed_mime_types ?? null,
  };
}

export const libraryLimitsQuery = () =>
  queryOptions({ queryKey: knowledgeKeys.limits(), queryFn: getLibraryLimits });

export function useLibraryLimits() {
  return useQuery(libraryLimitsQuery());
}
