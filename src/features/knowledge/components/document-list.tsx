import { Library } from 'lucide-react';
import { QueryError } from '@/components/data/query-error';
import { showToast } from '@/components/ui/toaster';
import { useDeleteDocument, useRenameDocument } from '../api/change-document';
import { DOCUMENT_LIMIT, useDocuments, type KnowledgeDocument } from '../api/list-documents';
import { documentErrorMessage, statusOf } from '../model/storage-error';
import { DocumentRow } from './document-row';
import { DocumentsSkeleton } from './documents-skeleton';

/** The workspace's documents, newest first, with the actions this person may take. */
export function DocumentList({
  workspaceId,
  canWrite,
}: {
  workspaceId: string;
  canWrite: boolean;
}) {
  const documents = useDocuments(workspaceId);
  const rename = useRenameDocument(workspaceId);
  const remove = useDeleteDocument(workspaceId);
  const names = documents.data?.map((document) => document.name) ?? [];

  const handleRename = async (document: KnowledgeDocument, newName: string) => {
    try {
      await rename.mutateAsync({ document, newName });
      void showToast('success', `Renamed to ${newName}.`);
    } catch (error) {
      // Shown under the name field, where the person is looking.
      const about = statusOf(error) === '409' ? newName : document.name;
      throw new Error(documentErrorMessage(error, 'rename', about), { cause: error });
    }
  };

  const handleDelete = async (document: KnowledgeDocument) => {
    try {
      await remove.mutateAsync(document);
      void showToast('success', `${document.name} was deleted.`);
    } catch (error) {
      void showToast('error', documentErrorMessage(error, 'delete', document.name));
      throw error;
    }
  };

  return (
    <section
      aria-labelledby="documents-heading"
      className="overflow-hidden rounded-2xl border border-sand-200 bg-white"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-sand-200 px-4 py-4 sm:px-5">
        <h2 id="documents-heading" className="text-lg font-semibold text-ink-900">
          Documents
        </h2>
        {documents.data ? (
          <p className="text-sm text-ink-600" aria-live="polite">
            {documents.data.length === 1 ? '1 document' : `${documents.data.length} documents`}
          </p>
        ) : null}
      </div>
      {documents.isError ? (
        <div className="p-4">
          <QueryError
            what="the documents"
            onRetry={() => void documents.refetch()}
            isRetrying={documents.isFetching}
          />
        </div>
      ) : !documents.data ? (
        <DocumentsSkeleton />
      ) : documents.data.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-12 text-center">
          <Library aria-hidden="true" className="size-8 text-ink-300" />
          <h3 className="mt-3 text-lg font-semibold text-ink-900">No documents yet</h3>
          <p className="mt-1 max-w-md text-ink-600">
            {canWrite
              ? 'Add your product guides, policies and FAQs above. Your phone agent answers callers from them.'
              : 'When an owner or admin of your workspace adds guides, policies or FAQs, they appear here.'}
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Documents" className="divide-y divide-sand-200">
            {documents.data.map((document) => (
              <DocumentRow
                key={document.path}
                document={document}
                canWrite={canWrite}
                takenNames={names}
                onRename={handleRename}
                onDelete={handleDelete}
              />
            ))}
          </ul>
          {documents.data.length >= DOCUMENT_LIMIT ? (
            <p className="border-t border-sand-200 px-5 py-3 text-sm text-ink-600">
              Showing the {DOCUMENT_LIMIT} most recently updated documents.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
