/**
 * Storage's refusals (`{statusCode, error, message}`, from supabase-js or our
 * own upload request) as sentences for people, about one document.
 */

export type DocumentAction = 'upload' | 'rename' | 'delete' | 'download';

/** A failure the app already put into words. */
export class DocumentError extends Error {
  override name = 'DocumentError';
}

/** The logical status of a Storage error ('409'), or 'network' when no answer came. */
export function statusOf(error: unknown): string {
  if (error instanceof DocumentError) return 'worded';
  if (typeof error !== 'object' || error === null) return 'unknown';
  const { statusCode, status, name } = error as Record<string, unknown>;
  if (statusCode !== undefined && statusCode !== null && statusCode !== '')
    return String(statusCode);
  if (typeof status === 'number' && status > 0) return String(status);
  if (name === 'StorageUnknownError' || error instanceof TypeError) return 'network';
  return 'unknown';
}

const VERB: Record<DocumentAction, string> = {
  upload: 'uploading',
  rename: 'renaming',
  delete: 'deleting',
  download: 'downloading',
};

export function documentErrorMessage(
  error: unknown,
  action: DocumentAction,
  name: string,
  limits?: { size: string; kinds: string },
): string {
  if (error instanceof DocumentError) return error.message;
  const status = statusOf(error);
  switch (status) {
    case '409':
      return `A document named ${name} is already in the library. Choose another name, or delete that one first.`;
    case '413':
      return `${name} is larger than the library’s ${limits?.size ?? 'size'} limit.`;
    case '415':
      return `${name} is not a type the library accepts${limits ? `: upload ${limits.kinds} files` : ''}.`;
    case '403':
      return `You don’t have permission to change the knowledge library. Ask a workspace owner or admin to ${action} ${name}.`;
    case '401':
      return 'Your session has ended. Sign in again, then try once more.';
    case '404':
      return action === 'upload'
        ? `The knowledge library could not be found while uploading ${name}. Reload the page and try again.`
        : `${name} is no longer in the library: someone may have renamed or deleted it. The list now shows what is there.`;
    case '400':
      return `The library refused the name ${name}. Use letters A–Z, digits, spaces and simple signs.`;
    case 'network':
      return `The connection to Cervana was lost while ${VERB[action]} ${name}. Check your connection and try again.`;
    default:
      return `Something went wrong on our side while ${VERB[action]} ${name}. Please try again in a moment.`;
  }
}
