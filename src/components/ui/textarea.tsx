import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';
import { inputStyles } from './input';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(inputStyles, 'h-auto min-h-28 py-2.5', className)} {...props} />;
}
