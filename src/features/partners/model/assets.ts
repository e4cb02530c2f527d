/**
 * The partner-assets bucket's files, as the portal shows them: what kind of
 * file each is (for its preview), and its size in words.
 */

export type AssetKind = 'image' | 'pdf' | 'video' | 'file';

/** From the stored content type, else the name's extension. */
export function assetKind(name: string, mimetype?: string | null): AssetKind {
  const type = mimetype?.toLowerCase() ?? '';
  const extension = name.toLowerCase().split('.').pop() ?? '';
  if (
    type.startsWith('image/') ||
    ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'avif'].includes(extension)
  )
    return 'image';
  if (type === 'application/pdf' || extension === 'pdf') return 'pdf';
  if (type.startsWith('video/') || ['mp4', 'webm', 'mov'].includes(extension)) return 'video';
  return 'file';
}

export const ASSET_KIND_LABELS: Record<AssetKind, string> = {
  image: 'Image',
  pdf: 'PDF',
  video: 'Video',
  file: 'File',
};

/** 1536 → '1.5 KB' (1024-based, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** 'logos/cervana.png' → 'cervana.png': the name partners download it under. */
export function assetFileName(path: string): string {
  return path.split('/').pop() ?? path;
}
