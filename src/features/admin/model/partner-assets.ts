/**
 * The partner assets bucket (public, read by partners in their portal): its
 * folders, the browser's checks before an upload (the bucket has the last
 * word), and how sizes read.
 */

export const PARTNER_ASSETS_BUCKET = 'partner-assets';

export const ASSET_FOLDERS = [
  { id: 'logos', label: 'Logos' },
  { id: 'documents', label: 'Documents' },
  { id: 'videos', label: 'Videos' },
] as const;
export type AssetFolder = (typeof ASSET_FOLDERS)[number]['id'];

export function folderLabel(folder: string): string {
  if (folder === '') return 'Top level';
  return ASSET_FOLDERS.find((option) => option.id === folder)?.label ?? folder;
}

export interface AssetLimits {
  maxBytes: number | null;
  /** 'image/*', 'application/pdf', …; null when the bucket takes any type. */
  mimeTypes: string[] | null;
}

/** What the bucket held when this was written, for when its limits cannot be read. */
export const DEFAULT_ASSET_LIMITS: AssetLimits = {
  maxBytes: 20_000_000,
  mimeTypes: ['image/*', 'application/pdf', 'video/mp4'],
};

const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Sizes in decimal units, as the bucket's limit is set (20,000,000 bytes reads '20 MB'). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${decimal.format(bytes / 1_000_000)} MB`;
}

export function typeAllowed(mimeType: string, allowed: readonly string[] | null): boolean {
  if (!allowed) return true;
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (!type) return false;
  return allowed.some((pattern) =>
    pattern.endsWith('/*')
      ? type.startsWith(pattern.slice(0, -1).toLowerCase())
      : type === pattern.toLowerCase(),
  );
}

const KIND_WORDS: Record<string, string> = {
  'image/*': 'images',
  'application/pdf': 'PDFs',
  'video/mp4': 'MP4 videos',
};

/** 'images, PDFs and MP4 videos up to 20 MB'. */
export function describeAssetLimits(limits: AssetLimits): string {
  const kinds = limits.mimeTypes?.map((type) => KIND_WORDS[type] ?? type) ?? ['any file'];
  const list =
    kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}` : (kinds[0] ?? '');
  return limits.maxBytes ? `${list} up to ${formatBytes(limits.maxBytes)}` : list;
}

/**
 * A name the bucket stores and a URL carries plainly: letters, digits, dots,
 * dashes and underscores (spaces become dashes), the extension kept.
 */
export function assetName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^[.-]+/, '');
  return cleaned.slice(-120) || 'file';
}

/** Why a file cannot go into the bucket, as a sentence; null when it can. */
export function assetProblem(
  file: { name: string; size: number; type: string },
  limits: AssetLimits,
): string | null {
  if (file.size === 0) return `${file.name} is empty.`;
  if (!typeAllowed(file.type, limits.mimeTypes)) {
    return `${file.name} is not a type partners can use here: upload ${describeAssetLimits({ ...limits, maxBytes: null })}.`;
  }
  if (limits.maxBytes !== null && file.size > limits.maxBytes) {
    return `${file.name} is ${formatBytes(file.size)}, over the ${formatBytes(limits.maxBytes)} limit.`;
  }
  return null;
}

export function assetPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** Storage's refusals about one asset, as sentences (statusOf reads the logical status). */
export function assetErrorMessage(
  status: string,
  action: 'upload' | 'delete',
  name: string,
  limits: AssetLimits,
): string {
  switch (status) {
    case '409':
      return `A file named ${name} is already in that folder. Replace it from its row, or rename your file.`;
    case '413':
      return `${name} is over the ${limits.maxBytes ? formatBytes(limits.maxBytes) : 'size'} limit.`;
    case '415':
      return `${name} is not a type partners can use here: upload ${describeAssetLimits({ ...limits, maxBytes: null })}.`;
    case '401':
      return 'Your session has ended. Sign in again, then try once more.';
    case '403':
      return `You don’t have permission to ${action} partner assets: only Cervana admins can.`;
    case '404':
      return `${name} is no longer there: someone may have deleted it. The list now shows what is there.`;
    case 'network':
      return `The connection to Cervana was lost while ${action === 'upload' ? 'uploading' : 'deleting'} ${name}. Check your connection and try again.`;
    default:
      return `Something went wrong on our side while ${action === 'upload' ? 'uploading' : 'deleting'} ${name}. Please try again in a moment.`;
  }
}

/** A Storage refusal as the server sent it (`statusCode` is its logical status). */
export class AssetUploadRefused extends Error {
  override name = 'AssetUploadRefused';
  constructor(
    readonly statusCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** The logical status of a Storage error ('409'), or 'network' when no answer came. */
export function storageStatusOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const { statusCode, status, name } = error as Record<string, unknown>;
  if (statusCode !== undefined && statusCode !== null && statusCode !== '')
    return String(statusCode);
  if (typeof status === 'number' && status > 0) return String(status);
  if (name === 'StorageUnknownError' || error instanceof TypeError) return 'network';
  return 'unknown';
}
