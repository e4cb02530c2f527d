import { Download, FileText, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/components/ui/toaster';
import { downloadDocument } from '../api/download-document';
import type { KnowledgeDocument } from '../api/list-documents';
import { kindLabel, sizeLabel, updatedLabel } from '../model/document-labels';
import { documentErrorMessage } from '../model/storage-error';
import { RenameDialog } from './rename-dialog';

/** One document: what it is, and what this person may do with it. */
export function DocumentRow({
  document,
  canWrite,
  takenNames,
  onRename,
  onDelete,
}: {
  document: KnowledgeDocument;
  canWrite: boolean;
  takenNames: readonly string[];
  onRename: (document: KnowledgeDocument, newName: string) => Promise<void>;
  onDelete: (document: KnowledgeDocument) => Promise<void>;
}) {
  const [isDownloading, setIsDownloading] = useState(false);
  const updated = updatedLabel(document.updatedAt);

  const handleDownload = async () => {
    setIsDownloading(true);
    try {
      await downloadDocument(document);
    } catch (error) {
      void showToast('error', documentErrorMessage(error, 'download', document.name));
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-4 sm:flex-nowrap sm:px-5">
      <FileText
        aria-hidden="true"
        className="size-9 shrink-0 rounded-lg bg-azure-50 p-2 text-azure-700"
      />
      <div className="min-w-0 flex-1 basis-[calc(100%-3rem)] sm:basis-auto">
        <p className="font-semibold break-words text-ink-900">{document.name}</p>
        <p className="text-sm text-ink-600">
          {kindLabel(document.name, document.mimeType)} · {sizeLabel(document.size)}
          {updated ? (
            <>
              {' · '}
              <span>Updated {updated}</span>
            </>
          ) : null}
        </p>
      </div>
      <div className="ml-12 flex shrink-0 gap-1 sm:ml-0">
        <Button
          variant="ghost"
          onClick={() => void handleDownload()}
          disabled={isDownloading}
          aria-busy={isDownloading || undefined}
          aria-label={`Download ${document.name}`}
        >
          <Download aria-hidden="true" className="size-4" />
          <span className="hidden md:inline">Download</span>
        </Button>
        {canWrite ? (
          <>
            <RenameDialog
              document={document}
              takenNames={takenNames}
              onRename={(newName) => onRename(document, newName)}
              trigger={
                <Button variant="ghost" aria-label={`Rename ${document.name}`}>
                  <Pencil aria-hidden="true" className="size-4" />
                  <span className="hidden md:inline">Rename</span>
                </Button>
              }
            />
            <ConfirmDialog
              title={`Delete ${document.name}?`}
              description={
                <p>
                  Your phone agent stops answering from it, and it leaves the library for everyone
                  in the workspace. This cannot be undone.
                </p>
              }
              confirmLabel="Delete document"
              busyLabel="Deleting…"
              onConfirm={() => onDelete(document)}
              trigger={
                <Button variant="ghost" aria-label={`Delete ${document.name}`}>
                  <Trash2 aria-hidden="true" className="size-4 text-danger-700" />
                  <span className="hidden md:inline">Delete</span>
                </Button>
              }
            />
          </>
        ) : null}
      </div>
    </li>
  );
}
