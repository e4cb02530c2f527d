import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { fetchStatement } from '../api/commissions';
import type { PartnerAccount } from '../api/partner-account';
import { formatMonth } from '../model/commissions';
import { statementFileName, toStatementCsv } from '../model/statement-csv';

/** Chooses a month and downloads its statement, written here from the partner's own rows. */
export function StatementDownload({
  months,
  partner,
}: {
  /** 'YYYY-MM', newest first. */
  months: string[];
  partner: PartnerAccount;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const month = chosen && months.includes(chosen) ? chosen : months[0];

  if (!month) {
    return (
      <p className="text-sm text-ink-700">
        A statement per month becomes available once you have a commission or a payout.
      </p>
    );
  }

  const download = async () => {
    setIsBusy(true);
    setError(null);
    try {
      const { commissions, payouts } = await fetchStatement(partner.id, month);
      const csv = toStatementCsv({
        partner: { company: partner.company, referralCode: partner.referral_code },
        month,
        commissions,
        payouts,
        generatedAt: new Date(),
      });
      // The byte-order mark makes Excel read the file as UTF-8 (names with accents, €, £).
      const url = URL.createObjectURL(
        new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = statementFileName(month);
      link.click();
      // After the click has handed the file to the browser.
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch {
      setError('We could not prepare the statement. Check your connection and try again.');
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <Field id="statement-month" label="Statement month" className="w-full sm:w-56">
          <Select
            id="statement-month"
            value={month}
            onChange={(event) => setChosen(event.target.value)}
          >
            {months.map((option) => (
              <option key={option} value={option}>
                {formatMonth(option)}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          variant="secondary"
          onClick={() => void download()}
          disabled={isBusy}
          aria-busy={isBusy || undefined}
          className="w-full sm:w-auto"
        >
          <Download aria-hidden="true" className="size-4" />
          {isBusy ? 'Preparing…' : 'Download statement (CSV)'}
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
