import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { describeAuthError, type AuthErrorField } from './auth-error-message';

/**
 * Shows an auth error as a sentence on the field it concerns (or on the form
 * as a whole when the form has no such field), and focuses that field.
 */
export function applyAuthError<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  error: unknown,
  fields: Partial<Record<AuthErrorField, Path<Values>>>,
  options: { minPasswordLength?: number } = {},
): void {
  const { field, message } = describeAuthError(error, options);
  const target = field === 'form' ? undefined : fields[field];
  if (target) form.setError(target, { type: 'server', message }, { shouldFocus: true });
  else form.setError('root.server', { type: 'server', message });
}
