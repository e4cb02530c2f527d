import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export const inputStyles =
  'block h-11 w-full rounded-lg border border-sand-200 bg-white px-3 text-base text-ink-900 shadow-xs placeholder:text-sand-500 hover:border-ink-300 aria-invalid:border-danger-700 disabled:bg-sand-100 disabled:text-sand-700';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(inputStyles, className)} {...props} />;
}
