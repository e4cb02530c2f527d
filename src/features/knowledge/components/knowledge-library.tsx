import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import type { Workspace } from '@/lib/workspace/workspace';
import { useLibraryLimits } from '../api/library-limits';
import { useDocuments } from '../api/list-documents';
import { DocumentList } from './document-list';
import { UploadPanel } from './upload-panel';

/**
 * The workspace's knowledge library: owners and admins add, rename and delete
 * documents; members read and download them. Row-level security on the
 * bucket decides; the page only leaves out buttons that would be refused.
 */
export function KnowledgeLibrary({ workspace }: { workspace: Workspace }) {
  const canWrite = workspace.role === 'owner' || workspace.role === 'admin';
  return (
    <div className="grid gap-6">
      {canWrite ? (
        <UploadArea workspaceId={workspace.id} />
      ) : (
        <Alert tone="info" title="You can read and download these documents">
          Only the owners and admins of {workspace.name} can add, rename or delete them. Ask one of
          them if a document is missing or out of date.
        </Alert>
      )}
      <DocumentList workspaceId={workspace.id} canWrite={canWrite} />
    </div>
  );
}

function UploadArea({ workspaceId }: { workspaceId: string }) {
  const limits = useLibraryLimits();
  const documents = useDocuments(workspaceId);
  if (limits.isError) {
    return (
      <QueryError
        what="the upload rules"
        onRetry={() => void limits.refetch()}
        isRetrying={limits.isFetching}
      />
    );
  }
  if (!limits.data) {
    return (
      <div role="status" aria-label="Loading the upload rules">
        <Skeleton className="h-52 w-full rounded-2xl" />
      </div>
    );
  }
  return (
    <UploadPanel
      workspaceId={workspaceId}
      limits={limits.data}
      takenNames={documents.data?.map((document) => document.name) ?? []}
    />
  );
}
