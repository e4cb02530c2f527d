import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, Film } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import {
  assetLimitsQuery,
  assetsKeys,
  assetsQuery,
  deleteAsset,
  type PartnerAsset,
} from '../api/partner-assets';
import {
  ASSET_FOLDERS,
  DEFAULT_ASSET_LIMITS,
  assetErrorMessage,
  storageStatusOf,
  assetName,
  assetPath,
  assetProblem,
  describeAssetLimits,
  folderLabel,
  formatBytes,
  type AssetFolder,
  type AssetLimits,
} from '../model/partner-assets';
import { formatDay } from '../model/partners';
import { UploadProgress } from './upload-progress';
import { useAssetUpload } from './use-asset-upload';

/**
 * The files partners download from their portal (the public `partner-assets`
 * bucket): upload into a folder, replace, delete. Types and size are checked
 * here first, from the bucket's own limits.
 */
export function PartnerAssets() {
  const limitsQuery = useQuery(assetLimitsQuery());
  const limits = limitsQuery.data ?? DEFAULT_ASSET_LIMITS;
  const assets = useQuery(assetsQuery());

  return (
    <div className="grid gap-8">
      <UploadForm limits={limits} assets={assets.data ?? []} />
      {assets.isPending ? (
        <div role="status" className="grid gap-3">
          <span className="sr-only">Loading partner assets…</span>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : assets.isError ? (
        <QueryError
          what="the partner assets"
          onRetry={() => void assets.refetch()}
          isRetrying={assets.isFetching}
        />
      ) : assets.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-sand-200 bg-white p-6 text-ink-700">
          No assets yet. Upload logos, documents and videos partners can use.
        </p>
      ) : (
        <AssetFolders assets={assets.data} limits={limits} />
      )}
    </div>
  );
}

function UploadForm({ limits, assets }: { limits: AssetLimits; assets: PartnerAsset[] }) {
  const [folder, setFolder] = useState<AssetFolder>('logos');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [confirmReplace, setConfirmReplace] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const { upload, progress, error } = useAssetUpload(limits);
  const accept = limits.mimeTypes?.join(',');

  const send = async (replace: boolean) => {
    if (!file) return;
    const name = assetName(file.name);
    const done = await upload(assetPath(folder, name), file, name, replace);
    setConfirmReplace(null);
    if (done) {
      void showToast('success', `${name} is in ${folderLabel(folder)}; partners can download it.`);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFileError('Please choose a file to upload.');
      return;
    }
    const problem = assetProblem(file, limits);
    if (problem) {
      setFileError(problem);
      return;
    }
    const name = assetName(file.name);
    if (assets.some((asset) => asset.path === assetPath(folder, name))) {
      // Replacing changes what partners download at that address: ask first.
      setConfirmReplace(name);
      return;
    }
    void send(false);
  };

  const isBusy = progress !== null;
  return (
    <section
      aria-labelledby="asset-upload-title"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-4 sm:p-5"
    >
      <div>
        <h2 id="asset-upload-title" className="text-lg font-semibold text-ink-900">
          Upload an asset
        </h2>
        <p className="text-sm text-ink-600">
          Partners see every file here in their portal. The bucket takes{' '}
          {describeAssetLimits(limits)}.
        </p>
      </div>
      <form
        noValidate
        onSubmit={handleSubmit}
        className="grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-start"
      >
        <Field id="asset-folder" label="Folder">
          <Select
            id="asset-folder"
            value={folder}
            onChange={(event) => setFolder(event.target.value as AssetFolder)}
            disabled={isBusy}
          >
            {ASSET_FOLDERS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="asset-file" label="File" error={fileError ?? undefined}>
          <Input
            {...fieldProps('asset-file', { error: fileError ?? undefined })}
            ref={inputRef}
            type="file"
            accept={accept}
            disabled={isBusy}
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              setConfirmReplace(null);
              setFileError(chosen ? assetProblem(chosen, limits) : null);
            }}
            className="h-auto py-2"
          />
        </Field>
        <Button type="submit" disabled={isBusy} aria-busy={isBusy || undefined} className="sm:mt-7">
          {isBusy ? 'Uploading…' : 'Upload'}
        </Button>
      </form>
      {progress !== null && file ? (
        <UploadProgress name={assetName(file.name)} fraction={progress} />
      ) : null}
      {confirmReplace ? (
        <Alert tone="info" title={`${confirmReplace} is already in ${folderLabel(folder)}.`}>
          <p>Replace it? Partners who download it from now on get your new file.</p>
          <div className="mt-2 flex flex-wrap gap-3">
            <Button onClick={() => void send(true)} disabled={isBusy}>
              Replace the file
            </Button>
            <Button variant="secondary" onClick={() => setConfirmReplace(null)} disabled={isBusy}>
              Keep the old one
            </Button>
          </div>
        </Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}

function AssetFolders({ assets, limits }: { assets: PartnerAsset[]; limits: AssetLimits }) {
  const folders = [...new Set(assets.map((asset) => asset.folder))].sort((a, b) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
  );
  return (
    <div className="grid gap-6">
      {folders.map((folder) => (
        <section
          key={folder || 'top'}
          aria-labelledby={`assets-${folder || 'top'}`}
          className="grid gap-3"
        >
          <h2 id={`assets-${folder || 'top'}`} className="text-lg font-semibold text-ink-900">
            {folderLabel(folder)}
          </h2>
          <ul className="grid gap-3" aria-label={`${folderLabel(folder)} files`}>
            {assets
              .filter((asset) => asset.folder === folder)
              .map((asset) => (
                <AssetRow key={asset.path} asset={asset} limits={limits} />
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function AssetPreview({ asset }: { asset: PartnerAsset }) {
  const box =
    'flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-sand-200 bg-sand-50';
  if (asset.mimeType?.startsWith('image/')) {
    return (
      <div className={box}>
        <img
          src={asset.publicUrl}
          alt=""
          loading="lazy"
          className="max-h-full max-w-full object-contain"
        />
      </div>
    );
  }
  const Icon = asset.mimeType?.startsWith('video/') ? Film : FileText;
  return (
    <div className={box}>
      <Icon aria-hidden="true" className="size-7 text-ink-600" />
    </div>
  );
}

function AssetRow({ asset, limits }: { asset: PartnerAsset; limits: AssetLimits }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setError(null);
    try {
      await deleteAsset(asset.path);
      void showToast('success', `${asset.name} is deleted; partners no longer see it.`);
    } catch (caught) {
      setError(assetErrorMessage(storageStatusOf(caught), 'delete', asset.name, limits));
    }
    await queryClient.invalidateQueries({ queryKey: assetsKeys.all });
  };

  return (
    <li className="grid gap-3 rounded-2xl border border-sand-200 bg-white p-3 sm:p-4">
      <div className="flex flex-wrap items-center gap-4">
        <AssetPreview asset={asset} />
        <div className="min-w-0 flex-1 basis-40">
          <a
            href={asset.publicUrl}
            target="_blank"
            rel="noreferrer noopener"
            className="font-semibold break-all text-azure-700 hover:underline"
          >
            {asset.name}
          </a>
          <p className="text-sm text-ink-600">
            {asset.size !== null ? formatBytes(asset.size) : 'Size unknown'}
            {asset.updatedAt ? (
              <>
                {' · '}updated <time dateTime={asset.updatedAt}>{formatDay(asset.updatedAt)}</time>
              </>
            ) : null}
          </p>
        </div>
        <div className="flex w-full flex-wrap gap-3 sm:w-auto">
          <ReplaceAssetDialog asset={asset} limits={limits} />
          <ConfirmDialog
            trigger={
              <Button variant="secondary" aria-label={`Delete ${asset.name}…`}>
                Delete…
              </Button>
            }
            title={`Delete ${asset.name}?`}
            description={
              <p>
                Partners can no longer download it, and links to it stop working. This cannot be
                undone.
              </p>
            }
            confirmLabel="Delete"
            busyLabel="Deleting…"
            onConfirm={remove}
          />
        </div>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </li>
  );
}

/** Puts another file at the same address: partners' links keep working, with the new content. */
function ReplaceAssetDialog({ asset, limits }: { asset: PartnerAsset; limits: AssetLimits }) {
  const [isOpen, setIsOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const { upload, progress, error, setError } = useAssetUpload(limits);
  const isBusy = progress !== null;
  const id = `replace-${asset.path.replace(/[^A-Za-z0-9]/g, '-')}`;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFileError('Please choose the new file.');
      return;
    }
    const problem = assetProblem(file, limits);
    if (problem) {
      setFileError(problem);
      return;
    }
    if (await upload(asset.path, file, asset.name, true)) {
      void showToast('success', `${asset.name} is replaced.`);
      setIsOpen(false);
      setFile(null);
    }
  };

  return (
    <Dialog.Root
      open={isOpen}
      onOpenChange={(open) => {
        if (isBusy) return;
        setIsOpen(open);
        if (!open) {
          setFile(null);
          setFileError(null);
          setError(null);
        }
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={`Replace ${asset.name}…`}>
          Replace…
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] max-h-[90vh] w-[min(92vw,30rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold break-all text-ink-900">
            Replace {asset.name}?
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-ink-700">
            The new file keeps this name and address, so partners’ links keep working and give the
            new file. The old one cannot be brought back.
          </Dialog.Description>
          <form
            noValidate
            onSubmit={(event) => void handleSubmit(event)}
            className="mt-4 grid gap-4"
          >
            <Field id={id} label="New file" error={fileError ?? undefined}>
              <Input
                {...fieldProps(id, { error: fileError ?? undefined })}
                type="file"
                accept={limits.mimeTypes?.join(',')}
                disabled={isBusy}
                onChange={(event) => {
                  const chosen = event.target.files?.[0] ?? null;
                  setFile(chosen);
                  setFileError(chosen ? assetProblem(chosen, limits) : null);
                }}
                className="h-auto py-2"
              />
            </Field>
            {progress !== null ? <UploadProgress name={asset.name} fraction={progress} /> : null}
            {error ? <Alert tone="error">{error}</Alert> : null}
            <div className="flex flex-wrap justify-end gap-3">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={isBusy}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={isBusy} aria-busy={isBusy || undefined}>
                {isBusy ? 'Replacing…' : 'Replace the file'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
