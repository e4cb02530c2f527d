import { Button } from './button';

/** A form's submit button: disabled and relabelled while the form is busy. */
export function SubmitButton({
  isBusy,
  busyLabel,
  label,
  isFullWidth = true,
}: {
  isBusy: boolean;
  busyLabel: string;
  label: string;
  isFullWidth?: boolean;
}) {
  return (
    <Button
      type="submit"
      size={isFullWidth ? 'lg' : 'md'}
      className={isFullWidth ? 'w-full' : undefined}
      disabled={isBusy}
      aria-busy={isBusy || undefined}
    >
      {isBusy ? busyLabel : label}
    </Button>
  );
}
