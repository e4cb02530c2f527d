import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/**
 * How the form functions in the database answer a visitor's mistake: HTTP 400
 * with a sentence as `message` and the field's name as `details`; 409 and 429
 * with a sentence about the whole submission. Those sentences are written for
 * people and shown as they are; anything else gets a sentence of ours.
 */
export interface RpcError {
  code?: string;
  message: string;
  details?: string | null;
}

export const NETWORK_ERROR =
  'We could not reach our server, so nothing was sent. Your answers are still here: please check your connection and try again.';
export const UNEXPECTED_ERROR =
  'Something went wrong on our side and nothing was sent. Your answers are still here: please try again in a moment.';

const VISITOR_CODES = new Set(['22023', 'PT409', 'PT429', 'PT404']);

/** The sentence to show for an error from `rpc()` (or a thrown network error). */
export function rpcErrorMessage(error: unknown): string {
  if (isRpcError(error) && error.code && VISITOR_CODES.has(error.code)) return error.message;
  if (isRpcError(error) && !error.code && /fetch|network/i.test(error.message)) {
    return NETWORK_ERROR;
  }
  if (error instanceof TypeError) return NETWORK_ERROR;
  return UNEXPECTED_ERROR;
}

export function isRpcError(error: unknown): error is RpcError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/**
 * Puts the database's answer under the field it names (`fields` maps the
 * database's argument names to the form's), else above the submit button.
 */
export function applyRpcError<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  error: unknown,
  fields: Partial<Record<string, Path<Values>>>,
): void {
  const field = isRpcError(error) && error.details ? fields[error.details] : undefined;
  // 22023: a value refused; 23505: a value taken (a number another workspace has).
  if (field && isRpcError(error) && (error.code === '22023' || error.code === '23505')) {
    form.setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
    return;
  }
  form.setError('root.server', { type: 'server', message: rpcErrorMessage(error) });
}
