import { getSupabase } from '@/lib/supabase';
import { loadRuntimeConfig } from '@/lib/runtime-config';
import { KNOWLEDGE_BUCKET, type DocumentKind } from '../model/document-rules';
import { documentPath } from './list-documents';

/**
 * Uploads one document with progress. supabase-js's upload reports none, so
 * this is the same request it makes (`POST /storage/v1/object/<bucket>/<key>`
 * with the session's token and the anon key), sent with XMLHttpRequest, whose
 * `upload.onprogress` counts the bytes sent. The type is set from the
 * extension: browsers give `.md` no type, and the bucket needs the right one.
 */

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadRequest {
  workspaceId: string;
  file: Blob;
  name: string;
  kind: DocumentKind;
  /** Replace a document of the same name (the person asked to). */
  replace?: boolean;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** A Storage refusal as the server sent it (`statusCode` is its logical status). */
export class UploadRefused extends Error {
  override name = 'UploadRefused';
  constructor(
    readonly statusCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** No answer came (connection lost, server away); `status` 0 as XMLHttpRequest reports it. */
export class UploadNetworkError extends Error {
  override name = 'StorageUnknownError';
}

export function objectUrl(apiUrl: string, path: string): string {
  const key = path.split('/').map(encodeURIComponent).join('/');
  return `${apiUrl.replace(/\/$/, '')}/storage/v1/object/${KNOWLEDGE_BUCKET}/${key}`;
}

function refusalOf(status: number, body: string): UploadRefused {
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown; message?: unknown };
    return new UploadRefused(
      String(parsed.statusCode ?? status),
      typeof parsed.message === 'string' ? parsed.message : `HTTP ${status}`,
    );
  } catch {
    return new UploadRefused(String(status), `HTTP ${status}`);
  }
}

export async function uploadDocument(request: UploadRequest): Promise<void> {
  const [config, supabase] = await Promise.all([loadRuntimeConfig(), getSupabase()]);
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new UploadRefused('401', 'Not signed in');
  request.signal?.throwIfAborted();

  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', objectUrl(config.url, documentPath(request.workspaceId, request.name)));
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', config.anonKey);
    xhr.setRequestHeader('Content-Type', request.kind.mimeType);
    xhr.setRequestHeader('x-upsert', request.replace ? 'true' : 'false');
    xhr.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : request.file.size;
      request.onProgress?.({ loaded: Math.min(event.loaded, total), total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(refusalOf(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new UploadNetworkError('The upload got no answer'));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.file);
  });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
