import { cn } from '@/lib/cn';

/**
 * `primary` and `secondary` sit on light backgrounds, `bright` and `outline`
 * on dark ones. Every text/background pair meets WCAG AA.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'bright' | 'outline';
export type ButtonSize = 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-azure-700 text-white shadow-sm hover:bg-azure-800',
  secondary: 'bg-white text-ink-900 ring-1 ring-sand-200 ring-inset hover:bg-sand-100',
  ghost: 'text-ink-800 hover:bg-sand-100',
  bright: 'bg-azure-500 text-ink-900 shadow-sm hover:bg-azure-400',
  outline: 'text-white ring-1 ring-white/35 ring-inset hover:bg-white/10',
};

const sizes: Record<ButtonSize, string> = {
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

/** Class names for anything that looks like a button (buttons and links alike). */
export function buttonStyles(
  options: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {},
): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-60 aria-busy:cursor-progress',
    variants[options.variant ?? 'primary'],
    sizes[options.size ?? 'md'],
    options.className,
  );
}
