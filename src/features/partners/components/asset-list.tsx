import { useQuery } from '@tanstack/react-query';
import { Download, FileText, File as FileIcon, Film } from 'lucide-react';
import { QueryError } from '@/components/data/query-error';
import { buttonStyles } from '@/components/ui/button-styles';
import { partnerAssetsQuery, type PartnerAsset } from '../api/partner-assets';
import { ASSET_KIND_LABELS, formatBytes } from '../model/assets';
import { formatDay } from '../model/referrals';

const ICONS = { pdf: FileText, video: Film, file: FileIcon, image: FileIcon } as const;

/** The files of the partner-assets bucket, each with a preview and a download. */
export function AssetList() {
  const assets = useQuery(partnerAssetsQuery());
  if (assets.isPending)
    return (
      <p role="status" className="text-ink-600">
        Loading...
      </p>
    );
  if (assets.isError)
    return (
      <QueryError
        what="the marketing assets"
        onRetry={() => void assets.refetch()}
        isRetrying={assets.isFetching}
      />
    );
  if (assets.data.length === 0)
    return (
      <div className="rounded-2xl border border-dashed border-sand-200 bg-white p-5 text-ink-700 sm:p-6">
        No assets yet: your partner manager adds logos, the one-pager and the deck here.
      </div>
    );
  return (
    <ul aria-label="Marketing assets" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {assets.data.map((asset) => (
        <AssetCard key={asset.path} asset={asset} />
      ))}
    </ul>
  );
}

function AssetPreview({ asset }: { asset: PartnerAsset }) {
  if (asset.thumbnailUrl)
    return (
      <img
        src={asset.thumbnailUrl}
        alt=""
        loading="lazy"
        width={320}
        height={200}
        className="h-full w-full object-contain"
      />
    );
  const Icon = ICONS[asset.kind];
  return (
    <span className="grid justify-items-center gap-2 text-ink-700">
      <Icon aria-hidden="true" className="size-10" />
      <span className="text-sm font-semibold">{ASSET_KIND_LABELS[asset.kind]}</span>
    </span>
  );
}

function AssetCard({ asset }: { asset: PartnerAsset }) {
  const details = [
    ASSET_KIND_LABELS[asset.kind],
    asset.size !== null ? formatBytes(asset.size) : null,
    asset.folder || null,
  ].filter(Boolean);
  return (
    <li className="grid overflow-hidden rounded-2xl border border-sand-200 bg-white">
      <div className="grid aspect-[16/10] place-items-center border-b border-sand-200 bg-sand-50 p-3">
        <AssetPreview asset={asset} />
      </div>
      <div className="grid gap-3 p-4">
        <div className="min-w-0">
          <h2 className="font-semibold break-words text-ink-900">{asset.name}</h2>
          <p className="text-sm text-ink-600">
            {details.join(' · ')}
            {asset.updatedAt ? (
              <>
                {' · '}
                <span className="sr-only">updated </span>
                <time dateTime={asset.updatedAt}>{formatDay(asset.updatedAt)}</time>
              </>
            ) : null}
          </p>
        </div>
        <a
          href={asset.downloadUrl}
          download={asset.name}
          className={buttonStyles({ variant: 'secondary', className: 'w-fit' })}
        >
          <Download aria-hidden="true" className="size-4" />
          Download<span className="sr-only"> {asset.name}</span>
        </a>
      </div>
    </li>
  );
}
