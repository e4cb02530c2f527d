import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/ui/button-styles';
import type { CallPage, PageCursor } from '../model/call-list';

/** Previous and next page links; a page with no neighbour shows the link greyed out. */
export function CallsPagination({
  page,
  pageSearch,
  summary,
}: {
  page: CallPage;
  pageSearch: (cursor: PageCursor | null) => string;
  /** 'Showing 25 of 1,234 calls'. */
  summary: string;
}) {
  return (
    <nav
      aria-label="Pages of calls"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3 sm:px-5"
    >
      <p className="text-sm text-ink-600">{summary}</p>
      <div className="flex gap-2">
        <PageLink cursor={page.previous} pageSearch={pageSearch} label="Previous" />
        <PageLink cursor={page.next} pageSearch={pageSearch} label="Next" />
      </div>
    </nav>
  );
}

function PageLink({
  cursor,
  pageSearch,
  label,
}: {
  cursor: PageCursor | null;
  pageSearch: (cursor: PageCursor | null) => string;
  label: 'Previous' | 'Next';
}) {
  const content = (
    <>
      {label === 'Previous' ? <ChevronLeft aria-hidden="true" className="size-4" /> : null}
      {label}
      <span className="sr-only"> page</span>
      {label === 'Next' ? <ChevronRight aria-hidden="true" className="size-4" /> : null}
    </>
  );
  if (!cursor) {
    return (
      <span
        aria-disabled="true"
        className={buttonStyles({ variant: 'secondary', className: 'cursor-default opacity-50' })}
      >
        {content}
      </span>
    );
  }
  return (
    <Link to={{ search: pageSearch(cursor) }} className={buttonStyles({ variant: 'secondary' })}>
      {content}
    </Link>
  );
}
