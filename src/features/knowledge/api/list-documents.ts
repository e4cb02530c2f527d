import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { KNOWLEDGE_BUCKET } from '../model/document-rules';
import { knowledgeKeys } from './query-keys';

export interface KnowledgeDocument {
  /** The file name, as shown and downloaded. */
  name: string;
  /** Its key in the bucket: '<workspace id>/<name>'. */
  path: string;
  size: number | null;
  mimeType: string | null;
  /** ISO 8601. */
  updatedAt: string | null;
}

/** More than any library we expect; the list says so if it is ever reached. */
export const DOCUMENT_LIMIT = 1000;

const entrySchema = z.object({
  name: z.string(),
  id: z.string().nullable(),
  updated_at: z.string().nullable(),
  metadata: z
    .object({ size: z.number().optional(), mimetype: z.string().optional() })
    .passthrough()
    .nullable(),
});

export function documentPath(workspaceId: string, name: string): string {
  return `${workspaceId}/${name}`;
}

/** The workspace's documents, newest first (folders, which the library never makes, left out). */
export async function listDocuments(workspaceId: string): Promise<KnowledgeDocument[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.storage.from(KNOWLEDGE_BUCKET).list(workspaceId, {
    limit: DOCUMENT_LIMIT,
    sortBy: { column: 'updated_at', order: 'desc' },
  });
  if (error) throw error;
  return z
    .array(entrySchema)
    .parse(data)
    .filter((entry) => entry.id !== null)
    .map((entry) => ({
      name: entry.name,
      path: documentPath(workspaceId, entry.name),
      size: entry.metadata?.size ?? null,
      mimeType: entry.metadata?.mimetype ?? null,
      updatedAt: entry.updated_at,
    }));
}

export const documentsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: knowledgeKeys.documents(workspaceId),
    queryFn: () => listDocuments(workspaceId),
  });

export function useDocuments(workspaceId: string) {
  return useQuery(documentsQuery(workspaceId));
}
