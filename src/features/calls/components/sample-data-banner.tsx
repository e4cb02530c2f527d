import { FlaskConical } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { showToast } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { useClearSampleCalls } from '../api/clear-sample-calls';
import { useSampleState } from '../api/sample-calls';
import type { Workspace } from '@/lib/workspace/workspace';
import { formatCount } from '../model/kpis';

/**
 * Says plainly that the calls shown are samples, while there are any; the
 * owner clears them in one step. Calls from the phone system are never samples.
 */
export function SampleDataBanner({
  workspace,
  onCleared,
}: {
  workspace: Workspace;
  /** After clearing, when the banner (and the button that had focus) is gone. */
  onCleared: () => void;
}) {
  const samples = useSampleState(workspace.id);
  const clear = useClearSampleCalls(workspace.id);
  const count = samples.data?.sample_calls ?? 0;
  const canClear = samples.data?.can_clear ?? false;
  if (count === 0) return null;

  const handleClear = async () => {
    try {
      const cleared = await clear.mutateAsync();
      void showToast('success', `Sample data cleared: ${formatCount(cleared)} calls removed.`);
      // The dialog hands focus back to its button, which leaves with the banner.
      setTimeout(onCleared, 0);
    } catch (error) {
      // Refusals come as sentences for people (owners only, second factor first).
      const refusal =
        error instanceof Object && 'code' in error && error.code === '42501' && 'message' in error
          ? String(error.message)
          : '';
      void showToast('error', refusal || 'We could not clear the sample data. Please try again.');
      throw error;
    }
  };

  return (
    <section
      aria-labelledby="sample-data-heading"
      className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-azure-100 bg-azure-50 p-4 sm:p-5"
    >
      <div className="flex max-w-3xl gap-3">
        <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-azure-700" />
        <div>
          <h2 id="sample-data-heading" className="font-semibold text-ink-900">
            You’re looking at sample calls
          </h2>
          <p className="mt-1 text-sm text-ink-700">
            {formatCount(count)} made-up calls show what Cervana records for you. Calls from your
            phone system are never sample data
            {canClear
              ? ': clear these whenever you are ready.'
              : '; your workspace owner can clear these.'}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={paths.connectPhone} className={buttonStyles({ variant: 'secondary' })}>
          Connect your phone system
        </Link>
        {canClear ? (
          <ConfirmDialog
            trigger={<Button>Clear sample data</Button>}
            title="Clear the sample calls?"
            description={
              <p>
                The {formatCount(count)} sample calls, their recordings and transcripts leave your
                dashboard for good. Calls from your phone system stay.
              </p>
            }
            confirmLabel="Clear sample data"
            busyLabel="Clearing…"
            onConfirm={handleClear}
          />
        ) : null}
      </div>
    </section>
  );
}
