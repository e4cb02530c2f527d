import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { showToast } from '@/components/ui/toaster';
import { exportLeadsCsv } from '../api/leads-export';
import type { LeadFilters } from '../model/leads';
import { leadsCsvFileName } from '../model/leads-csv';

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

/** Downloads every lead of the filters as a CSV file. */
export function LeadExportButton({ filters, userId }: { filters: LeadFilters; userId: string }) {
  const [isBusy, setIsBusy] = useState(false);
  const handleExport = async () => {
    setIsBusy(true);
    try {
      download(leadsCsvFileName(new Date()), await exportLeadsCsv(filters, userId));
    } catch {
      void showToast('error', 'We could not export the leads. Please try again.');
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      onClick={() => void handleExport()}
      disabled={isBusy}
      aria-busy={isBusy || undefined}
    >
      <Download aria-hidden="true" className="size-4" />
      {isBusy ? 'Preparing CSV…' : 'Export CSV'}
    </Button>
  );
}
