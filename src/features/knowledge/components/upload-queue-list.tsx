import { CircleAlert, CircleCheck, LoaderCircle, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatSize } from '../model/document-rules';
import type { UploadItem } from './use-upload-queue';

/** Each chosen file: its bar while it uploads, then what became of it, in words. */
export function UploadQueueList({
  items,
  onCancel,
  onRetry,
  onReplace,
  onDismiss,
}: {
  items: UploadItem[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onReplace: (id: string) => void;
  onDismiss: (id: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="Uploads" className="mt-4 grid gap-2">
      {items.map((item) => (
        <li
          key={item.id}
          className="rounded-xl border border-sand-200 bg-white px-4 py-3 text-sm"
          aria-label={item.name}
        >
          <div className="flex items-start gap-3">
            <StatusIcon item={item} />
            <div className="min-w-0 flex-1">
              <p className="font-semibold break-words text-ink-900">{item.name}</p>
              {item.name !== item.fileName && item.status !== 'refused' ? (
                <p className="break-words text-ink-600">
                  Saved under this name (from {item.fileName}).
                </p>
              ) : null}
              <ItemStatus item={item} />
            </div>
            <ItemActions
              item={item}
              onCancel={onCancel}
              onRetry={onRetry}
              onReplace={onReplace}
              onDismiss={onDismiss}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}

function StatusIcon({ item }: { item: UploadItem }) {
  const className = 'mt-0.5 size-4 shrink-0';
  if (item.status === 'done')
    return <CircleCheck aria-hidden="true" className={`${className} text-mint-600`} />;
  if (item.status === 'refused' || item.status === 'failed')
    return <CircleAlert aria-hidden="true" className={`${className} text-danger-700`} />;
  if (item.status === 'cancelled')
    return <X aria-hidden="true" className={`${className} text-ink-600`} />;
  return (
    <LoaderCircle
      aria-hidden="true"
      className={`${className} animate-spin text-azure-700 motion-reduce:animate-none`}
    />
  );
}

function ItemStatus({ item }: { item: UploadItem }) {
  switch (item.status) {
    case 'checking':
      return <p className="text-ink-600">Checking the file…</p>;
    case 'waiting':
      return <p className="text-ink-600">Waiting for the upload before it…</p>;
    case 'uploading': {
      const percent = item.size > 0 ? Math.floor((item.loaded / item.size) * 100) : 0;
      return (
        <div className="mt-2">
          <div
            role="progressbar"
            aria-label={`Uploading ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${percent}%, ${formatSize(item.loaded)} of ${formatSize(item.size)}`}
            className="h-2 overflow-hidden rounded-full bg-sand-200"
          >
            <div
              className="h-full rounded-full bg-azure-700 transition-[width] duration-200 motion-reduce:transition-none"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="mt-1 text-ink-600 tabular-nums">
            {percent}% · {formatSize(item.loaded)} of {formatSize(item.size)}
          </p>
        </div>
      );
    }
    case 'done':
      return <p className="text-mint-800">Uploaded · {formatSize(item.size)}</p>;
    case 'cancelled':
      return <p className="text-ink-600">Cancelled. {item.message}</p>;
    default:
      return (
        <p role="alert" className="font-medium text-danger-700">
          {item.message}
        </p>
      );
  }
}

function ItemActions({
  item,
  onCancel,
  onRetry,
  onReplace,
  onDismiss,
}: {
  item: UploadItem;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onReplace: (id: string) => void;
  onDismiss: (id: string) => void;
}) {
  const isActive = ['checking', 'waiting', 'uploading'].includes(item.status);
  return (
    <div className="flex shrink-0 flex-wrap justify-end gap-2">
      {item.canReplace ? (
        <Button variant="secondary" onClick={() => onReplace(item.id)}>
          Replace
        </Button>
      ) : null}
      {item.status === 'failed' ? (
        <Button variant="secondary" onClick={() => onRetry(item.id)}>
          Try again
        </Button>
      ) : null}
      {isActive ? (
        <Button variant="ghost" onClick={() => onCancel(item.id)}>
          Cancel<span className="sr-only"> uploading {item.name}</span>
        </Button>
      ) : (
        <Button
          variant="ghost"
          className="w-10 px-0"
          onClick={() => onDismiss(item.id)}
          aria-label={`Dismiss ${item.name}`}
        >
          <X aria-hidden="true" className="size-5" />
        </Button>
      )}
    </div>
  );
}
