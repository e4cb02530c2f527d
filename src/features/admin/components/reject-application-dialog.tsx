import { ReasonDialog } from './reason-dialog';

/**
 * Asks for the reason before rejecting: it is required (up to 1,000
 * characters, as the database allows), and emailed to the applicant as written.
 */
export function RejectApplicationDialog({
  company,
  onReject,
}: {
  company: string;
  /** Resolves when rejected; a rejection (the error) keeps the dialog open. */
  onReject: (reason: string) => Promise<void>;
}) {
  return (
    <ReasonDialog
      id="reject-reason"
      triggerLabel="Reject…"
      title={`Reject ${company}’s application?`}
      description="The applicant is emailed your reason as you write it here. This cannot be undone."
      label="Reason for the applicant"
      submitLabel="Reject and email"
      busyLabel="Rejecting…"
      recipient="applicant"
      limit={1000}
      onSubmit={onReject}
    />
  );
}
