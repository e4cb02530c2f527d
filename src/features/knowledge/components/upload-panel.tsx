import { FileUp } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { acceptAttribute, describeLimits, type LibraryLimits } from '../model/document-rules';
import { UploadQueueList } from './upload-queue-list';
import { useUploadQueue } from './use-upload-queue';

/** Choosing or dropping documents, the rules stated before anything is sent, and each upload. */
export function UploadPanel({
  workspaceId,
  limits,
  takenNames,
}: {
  workspaceId: string;
  limits: LibraryLimits;
  takenNames: readonly string[];
}) {
  const queue = useUploadQueue({ workspaceId, limits, takenNames });
  const input = useRef<HTMLInputElement>(null);
  const [isDragging, setIsDragging] = useState(false);
  const rules = describeLimits(limits);

  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsDragging(false);
    queue.addFiles([...event.dataTransfer.files]);
  };
  const finished = queue.items.filter(
    (item) => !['checking', 'waiting', 'uploading'].includes(item.status),
  );

  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading" className="sr-only">
        Add documents
      </h2>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setIsDragging(true);
        }}
        onDragLeave={() => setIsDragging(false)}
        onDrop={handleDrop}
        className={cn(
          'flex flex-col items-center rounded-2xl border-2 border-dashed px-5 py-8 text-center transition-colors',
          isDragging ? 'border-azure-500 bg-azure-50' : 'border-sand-200 bg-white',
        )}
      >
        <FileUp aria-hidden="true" className="size-8 text-azure-700" />
        <p className="mt-3 font-semibold text-ink-900">Drop documents here, or choose them</p>
        <p id="upload-rules" className="mt-1 text-sm text-ink-600">
          {rules}
        </p>
        <Button className="mt-4" onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={acceptAttribute(limits)}
          aria-label="Choose documents to upload"
          aria-describedby="upload-rules"
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            queue.addFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      <UploadQueueList
        items={queue.items}
        onCancel={queue.cancel}
        onRetry={(id) => queue.retry(id)}
        onReplace={(id) => queue.retry(id, { replace: true })}
        onDismiss={queue.dismiss}
      />
      {finished.length > 1 ? (
        <div className="mt-2 flex justify-end">
          <Button variant="ghost" onClick={queue.clearFinished}>
            Clear finished
          </Button>
        </div>
      ) : null}
    </section>
  );
}
