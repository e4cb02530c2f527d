import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { KNOWLEDGE_BUCKET } from '../model/document-rules';
import { DocumentError } from '../model/storage-error';
import { documentPath, type KnowledgeDocument } from './list-documents';
import { knowledgeKeys } from './query-keys';

/**
 * Renaming and deleting: one request each, row-level security decides. A move
 * is a rename of the row on the server, so a renamed document is never copied
 * or half there.
 */

export async function renameDocument(
  workspaceId: string,
  document: KnowledgeDocument,
  newName: string,
): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.storage
    .from(KNOWLEDGE_BUCKET)
    .move(document.path, documentPath(workspaceId, newName));
  if (error) throw error;
}

export async function deleteDocument(document: KnowledgeDocument): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.storage.from(KNOWLEDGE_BUCKET).remove([document.path]);
  if (error) throw error;
  // Storage answers a delete it did not do (gone already, or not allowed) with an empty list.
  if (data.length === 0) {
    throw new DocumentError(
      `${document.name} could not be deleted: it is no longer in the library, or you may not change it. The list now shows what is there.`,
    );
  }
}

export function useRenameDocument(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ document, newName }: { document: KnowledgeDocument; newName: string }) =>
      renameDocument(workspaceId, document, newName),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: knowledgeKeys.workspace(workspaceId) }),
  });
}

export function useDeleteDocument(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: knowledgeKeys.workspace(workspaceId) }),
  });
}
