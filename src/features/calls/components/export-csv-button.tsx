import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toaster';
import { exportCallsCsv } from '../api/export-calls';
import { csvFileName } from '../model/call-list';
import type { CallSort, CallsQueryArgs } from '../model/filters';
import { formatCount } from '../model/kpis';

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; let it finish first.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads every call of the filters (not only the page on screen) as a CSV file. */
export function ExportCsvButton({
  args,
  sort,
  fromDay,
  toDay,
  count,
}: {
  args: CallsQueryArgs | null;
  sort: CallSort;
  fromDay: string;
  toDay: string;
  /** How many calls the file will hold, when known. */
  count: number | undefined;
}) {
  const [isBusy, setIsBusy] = useState(false);
  const handleExport = async () => {
    if (!args) return;
    setIsBusy(true);
    try {
      download(csvFileName(fromDay, toDay), await exportCallsCsv(args, sort));
    } catch {
      void showToast('error', 'We could not export the calls. Please try again.');
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      onClick={() => void handleExport()}
      disabled={!args || isBusy || count === 0}
      aria-busy={isBusy || undefined}
    >
      <Download aria-hidden="true" className="size-4" />
      {isBusy ? 'Preparing CSV…' : 'Export CSV'}
      {count !== undefined && !isBusy ? (
        <span className="sr-only">
          {' '}
          of {formatCount(count)} call{count === 1 ? '' : 's'}
        </span>
      ) : null}
    </Button>
  );
}
