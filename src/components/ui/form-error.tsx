import type { FieldErrors } from 'react-hook-form';
import { Alert } from './alert';

/** The error about the form as a whole (network, rate limits), above the submit button. */
export function FormError({ errors }: { errors: FieldErrors }) {
  const message = errors.root?.server?.message;
  return message ? <Alert tone="error">{message}</Alert> : null;
}
