import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

export const RECORDINGS_BUCKET = 'call-recordings';
/** How long a signed recording URL lives. */
export const RECORDING_URL_SECONDS = 3600;
/** A URL with less left than this is renewed before playing. */
export const RECORDING_URL_MARGIN_MS = 60_000;

export interface RecordingUrl {
  url: string;
  /** When the URL stops working (ms since the epoch, by this browser's clock). */
  expiresAt: number;
}

/** Storage answers a missing (or unreadable) object with a logical 404. */
function isMissingObject(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { statusCode, status } = error as { statusCode?: unknown; status?: unknown };
  return String(statusCode) === '404' || status === 404;
}

/** A signed URL to play the recording, or null when there is no such object. */
export async function createRecordingUrl(path: string): Promise<RecordingUrl | null> {
  const supabase = await getSupabase();
  const requestedAt = Date.now();
  const { data, error } = await supabase.storage
    .from(RECORDINGS_BUCKET)
    .createSignedUrl(path, RECORDING_URL_SECONDS);
  if (error) {
    if (isMissingObject(error)) return null;
    throw error;
  }
  return { url: data.signedUrl, expiresAt: requestedAt + RECORDING_URL_SECONDS * 1000 };
}

export const recordingUrlQuery = (path: string) =>
  queryOptions({
    queryKey: ['call-recording-url', path],
    queryFn: () => createRecordingUrl(path),
    // A URL is fresh until the last minutes of its life (the player renews it when it
    // must); "no such object" only briefly, as the provider may be uploading it now.
    staleTime: (query) =>
      query.state.data === null
        ? 30_000
        : RECORDING_URL_SECONDS * 1000 - 5 * RECORDING_URL_MARGIN_MS,
    gcTime: 5 * 60 * 1000,
  });

export function isExpiring(recording: RecordingUrl, now = Date.now()): boolean {
  return recording.expiresAt - now < RECORDING_URL_MARGIN_MS;
}
