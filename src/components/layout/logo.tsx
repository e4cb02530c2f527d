import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { cn } from '@/lib/cn';

export function LogoMark({
  className,
  tone = 'light',
}: {
  className?: string;
  tone?: 'light' | 'dark';
}) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" fill={tone === 'dark' ? '#1d3357' : '#0b1b33'} />
      <path
        d="M21.5 10.2a8 8 0 1 0 0 11.6"
        fill="none"
        stroke="#00a2ff"
        strokeWidth="3.2"
        strokeLinecap="round"
      />
      <circle cx="22" cy="16" r="2.2" fill="#3ddc97" />
    </svg>
  );
}

export function Logo({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  return (
    <Link
      to={paths.home}
      className={cn(
        'flex items-center gap-2.5 rounded-lg text-lg font-bold tracking-tight',
        tone === 'dark' ? 'text-white' : 'text-ink-900',
      )}
    >
      <LogoMark tone={tone} />
      {site.name}
      <span className="sr-only">, home</span>
    </Link>
  );
}
