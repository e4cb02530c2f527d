import { PhoneOff, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';

/**
 * Nothing to show: either the filters match nothing (clear them), or the
 * period has no calls at all (connect the phone system, or look further back).
 */
export function CallsEmpty({
  isFiltered,
  periodLabel,
  onClearFilters,
  onShowLonger,
}: {
  isFiltered: boolean;
  /** 'the last 30 days'. */
  periodLabel: string;
  onClearFilters: () => void;
  /** Offered when a longer period exists. */
  onShowLonger?: () => void;
}) {
  const Icon = isFiltered ? SearchX : PhoneOff;
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      <Icon aria-hidden="true" className="size-8 text-ink-300" />
      <h2 className="mt-3 text-lg font-semibold text-ink-900">
        {isFiltered ? 'No calls match these filters' : `No calls in ${periodLabel}`}
      </h2>
      <p className="mt-1 max-w-md text-ink-600">
        {isFiltered
          ? `Nothing in ${periodLabel} fits the search and filters. Try fewer words, or clear the filters.`
          : 'Calls show up here, live, as soon as your phone system sends them to Cervana.'}
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        {isFiltered ? (
          <Button onClick={onClearFilters}>Clear filters</Button>
        ) : (
          <>
            <Link to={paths.connectPhone} className={buttonStyles()}>
              Connect your phone system
            </Link>
            {onShowLonger ? (
              <Button variant="secondary" onClick={onShowLonger}>
                Show the last 90 days
              </Button>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
