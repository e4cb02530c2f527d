import { useQuery } from '@tanstack/react-query';
import { BadgeCheck } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { referralCode } from '@/lib/referral';
import { useHydrated } from '@/lib/use-hydrated';
import { findReferralPartner } from '../api/referral-partner';

const CODE = /^[A-Za-z0-9]{4,24}$/;

/** The code of the link the visitor followed, else the one remembered from an earlier visit. */
function useReferralCode(): string | undefined {
  const [params] = useSearchParams();
  const isHydrated = useHydrated();
  if (!isHydrated) return undefined; // the prerendered page knows no visitor
  const fromLink = params.get('ref')?.trim().toUpperCase();
  return fromLink && CODE.test(fromLink) ? fromLink : referralCode();
}

/**
 * "Recommended by <partner>" on the co-branded demo page (`/demo?ref=CODE`).
 * It is asked for after the page is shown and sits in the space above the
 * heading (two short lines at most on a phone, one above), so it neither
 * delays nor moves anything; an unknown or suspended code, or a failed
 * request, shows nothing.
 */
export function RecommendedBy() {
  const code = useReferralCode();
  const partner = useQuery({
    queryKey: ['referral-partner', code],
    queryFn: () => findReferralPartner(code!),
    enabled: code !== undefined,
    retry: false,
    staleTime: Infinity,
  });
  const company = partner.data?.company;
  // Nothing at all until a partner is known: the prerendered page stays as it was.
  if (!company) return null;
  return (
    <div className="pointer-events-none absolute inset-x-0 top-[4.25rem] flex justify-center px-6 sm:top-24">
      <p className="pointer-events-auto inline-flex max-w-full items-center gap-2 rounded-2xl bg-azure-50 px-3 py-1 text-xs leading-4 text-ink-800 ring-1 ring-azure-100 transition-opacity duration-300 ring-inset motion-reduce:transition-none starting:opacity-0 sm:rounded-full sm:px-4 sm:py-1.5 sm:text-sm sm:leading-5">
        <BadgeCheck aria-hidden="true" className="size-4 shrink-0 text-azure-700" />
        <span className="line-clamp-2 sm:line-clamp-1" title={`Recommended by ${company}`}>
          Recommended by <strong className="font-semibold text-ink-900">{company}</strong>
        </span>
      </p>
    </div>
  );
}
