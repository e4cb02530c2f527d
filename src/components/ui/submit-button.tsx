import { Button } from './button';

/**
 * A form's submit button: disabled and relabelled while the form is busy, and
 * disabled while `isDisabled` (a prerendered form before its code runs, which
 * would otherwise submit natively and put the answers in the URL).
 */
export function SubmitButton({
  isBusy,
  busyLabel,
  label,
  isFullWidth = true,
  isDisabled = false,
}: {
  isBusy: boolean;
  busyLabel: string;
  label: string;
  isFullWidth?: boolean;
  isDisabled?: boolean;
}) {
  return (
    <Button
      type="submit"
      size={isFullWidth ? 'lg' : 'md'}
      className={isFullWidth ? 'w-full' : undefined}
      disabled={isBusy || isDisabled}
      aria-busy={isBusy || undefined}
    >
      {isBusy ? busyLabel : label}
    </Button>
  );
}
