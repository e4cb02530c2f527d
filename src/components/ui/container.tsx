import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** The content column: 1280 px wide (1600 px on screens from 1920 px) with the page's side padding. */
export function Container({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('mx-auto w-full max-w-7xl px-5 sm:px-8 wide:max-w-[1600px]', className)}>
      {children}
    </div>
  );
}
