import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * The confirm dialog itself (Radix Dialog), loaded when first opened (see
 * ConfirmDialog). Focus stays in it until it closes, Escape cancels; on close
 * focus goes back to the button that opened it.
 */
export function ConfirmDialogContent({
  isOpen,
  isBusy,
  onOpenChange,
  returnFocusTo,
  title,
  description,
  confirmLabel,
  busyLabel,
  onConfirm,
}: {
  isOpen: boolean;
  isBusy: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: HTMLElement | null;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  onConfirm: () => void;
}) {
  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-[90] w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo?.focus();
          }}
        >
          <Dialog.Title className="text-lg font-semibold text-ink-900">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 text-sm text-ink-700">{description}</div>
          </Dialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={isBusy}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button onClick={onConfirm} disabled={isBusy} aria-busy={isBusy || undefined}>
              {isBusy ? busyLabel : confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
