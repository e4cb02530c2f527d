import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { loadRuntimeConfig } from '@/lib/runtime-config';
import { getSupabase } from '@/lib/supabase';
import {
  ASSET_FOLDERS,
  DEFAULT_ASSET_LIMITS,
  PARTNER_ASSETS_BUCKET,
  AssetUploadRefused,
  assetPath,
  type AssetLimits,
} from '../model/partner-assets';

export const assetsKeys = {
  all: ['admin', 'partner-assets'] as const,
  list: ['admin', 'partner-assets', 'list'] as const,
  limits: ['admin', 'partner-assets', 'limits'] as const,
};

export interface PartnerAsset {
  name: string;
  /** '' for the top level, else the folder's name. */
  folder: string;
  path: string;
  size: number | null;
  mimeType: string | null;
  updatedAt: string | null;
  publicUrl: string;
}

const entrySchema = z.object({
  name: z.string(),
  id: z.string().nullable(),
  updated_at: z.string().nullable(),
  metadata: z
    .object({ size: z.number().optional(), mimetype: z.string().optional() })
    .passthrough()
    .nullable(),
});

const bucketSchema = z.object({
  file_size_limit: z.number().nullable().optional(),
  allowed_mime_types: z.array(z.string()).nullable().optional(),
});

/** The bucket's own limits (storage.buckets), so the page checks what the server will. */
export const assetLimitsQuery = () =>
  queryOptions({
    queryKey: assetsKeys.limits,
    queryFn: async (): Promise<AssetLimits> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.storage.getBucket(PARTNER_ASSETS_BUCKET);
      if (error) return DEFAULT_ASSET_LIMITS;
      const bucket = bucketSchema.parse(data);
      return {
        maxBytes: bucket.file_size_limit ?? null,
        mimeTypes: bucket.allowed_mime_types?.length ? bucket.allowed_mime_types : null,
      };
    },
    staleTime: 5 * 60_000,
  });

/** The files at the top level and one level of folders (ours, and any found there). */
export const assetsQuery = () =>
  queryOptions({
    queryKey: assetsKeys.list,
    queryFn: async (): Promise<PartnerAsset[]> => {
      const supabase = await getSupabase();
      const bucket = supabase.storage.from(PARTNER_ASSETS_BUCKET);
      const list = async (folder: string) => {
        const { data, error } = await bucket.list(folder, {
          limit: 1000,
          sortBy: { column: 'name', order: 'asc' },
        });
        if (error) throw error;
        return z.array(entrySchema).parse(data);
      };
      const root = await list('');
      const folders = new Set<string>(ASSET_FOLDERS.map((folder) => folder.id));
      for (const entry of root) if (entry.id === null) folders.add(entry.name);
      const nested = await Promise.all(
        [...folders].map(async (folder) => ({ folder, entries: await list(folder) })),
      );
      return [{ folder: '', entries: root }, ...nested].flatMap(({ folder, entries }) =>
        entries
          .filter((entry) => entry.id !== null && entry.name !== '.emptyFolderPlaceholder')
          .map((entry) => {
            const path = assetPath(folder, entry.name);
            return {
              name: entry.name,
              folder,
              path,
              size: entry.metadata?.size ?? null,
              mimeType: entry.metadata?.mimetype ?? null,
              updatedAt: entry.updated_at,
              publicUrl: bucket.getPublicUrl(path).data.publicUrl,
            };
          }),
      );
    },
  });

/**
 * Uploads with progress (supabase-js reports none): the request it makes,
 * sent with XMLHttpRequest, as the knowledge library does. `replace` upserts.
 */
export async function uploadAsset(request: {
  path: string;
  file: File;
  replace: boolean;
  onProgress?: (fraction: number) => void;
}): Promise<void> {
  const [config, supabase] = await Promise.all([loadRuntimeConfig(), getSupabase()]);
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new AssetUploadRefused('401', 'Not signed in');
  const key = request.path.split('/').map(encodeURIComponent).join('/');
  const url = `${config.url.replace(/\/$/, '')}/storage/v1/object/${PARTNER_ASSETS_BUCKET}/${key}`;

  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', config.anonKey);
    xhr.setRequestHeader('Content-Type', request.file.type || 'application/octet-stream');
    xhr.setRequestHeader('x-upsert', request.replace ? 'true' : 'false');
    xhr.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : request.file.size;
      if (total > 0) request.onProgress?.(Math.min(event.loaded / total, 1));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve();
        return;
      }
      let statusCode = String(xhr.status);
      let message = `HTTP ${xhr.status}`;
      try {
        const parsed = JSON.parse(xhr.responseText) as { statusCode?: unknown; message?: unknown };
        if (parsed.statusCode !== undefined) statusCode = String(parsed.statusCode);
        if (typeof parsed.message === 'string') message = parsed.message;
      } catch {
        // Not JSON: the HTTP status says enough.
      }
      reject(new AssetUploadRefused(statusCode, message));
    };
    xhr.onerror = () =>
      reject(Object.assign(new Error('The upload got no answer'), { name: 'StorageUnknownError' }));
    xhr.ontimeout = xhr.onerror;
    xhr.send(request.file);
  });
}

export async function deleteAsset(path: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.storage.from(PARTNER_ASSETS_BUCKET).remove([path]);
  if (error) throw error;
}
