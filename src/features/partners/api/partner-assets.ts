import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { assetKind, type AssetKind } from '../model/assets';
import { partnerPortalKeys } from './partner-summary';

const BUCKET = 'partner-assets';
/** More than the team will ever put in one folder; the list is not paged. */
const LIST_LIMIT = 200;

export interface PartnerAsset {
  /** The object's key in the bucket: 'logos/cervana.png'. */
  path: string;
  name: string;
  /** The folder it is in ('logos'), or '' at the root. */
  folder: string;
  kind: AssetKind;
  mimetype: string | null;
  size: number | null;
  updatedAt: string | null;
  /** The public URL a browser opens. */
  url: string;
  /** The same, served as an attachment under its own name. */
  downloadUrl: string;
  /** A small rendering for images (the storage's /render/image transform), else null. */
  thumbnailUrl: string | null;
}

interface ListedObject {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * Every file of the public partner-assets bucket: the root and each folder one
 * level deep (the team files logos under `logos/` and the like). Folders come
 * back from a listing as entries without an id.
 */
export async function listPartnerAssets(): Promise<PartnerAsset[]> {
  const supabase = await getSupabase();
  const bucket = supabase.storage.from(BUCKET);
  const list = async (folder: string): Promise<ListedObject[]> => {
    const { data, error } = await bucket.list(folder, {
      limit: LIST_LIMIT,
      sortBy: { column: 'name', order: 'asc' },
    });
    if (error) throw error;
    return data as ListedObject[];
  };
  const root = await list('');
  const folders = root.filter((entry) => entry.id === null).map((entry) => entry.name);
  const nested = await Promise.all(
    folders.map(async (folder) => ({ folder, entries: await list(folder) })),
  );
  const groups = [{ folder: '', entries: root }, ...nested];
  return groups.flatMap(({ folder, entries }) =>
    entries
      // Sub-folders two levels down are not shown; dot-files are placeholders, not assets.
      .filter((entry) => entry.id !== null && !entry.name.startsWith('.'))
      .map((entry) => {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        const mimetype =
          typeof entry.metadata?.mimetype === 'string' ? entry.metadata.mimetype : null;
        const size = typeof entry.metadata?.size === 'number' ? entry.metadata.size : null;
        const kind = assetKind(entry.name, mimetype);
        return {
          path,
          name: entry.name,
          folder,
          kind,
          mimetype,
          size,
          updatedAt: entry.updated_at ?? entry.created_at,
          url: bucket.getPublicUrl(path).data.publicUrl,
          downloadUrl: bucket.getPublicUrl(path, { download: entry.name }).data.publicUrl,
          // SVGs are not rendered by the transform; the file itself is small enough.
          thumbnailUrl:
            kind !== 'image'
              ? null
              : mimetype === 'image/svg+xml'
                ? bucket.getPublicUrl(path).data.publicUrl
                : bucket.getPublicUrl(path, {
                    transform: { width: 320, height: 200, resize: 'contain' },
                  }).data.publicUrl,
        } satisfies PartnerAsset;
      }),
  );
}

export const partnerAssetsQuery = () =>
  queryOptions({ queryKey: partnerPortalKeys.assets(), queryFn: listPartnerAssets });
