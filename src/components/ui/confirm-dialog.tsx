import {
  cloneElement,
  isValidElement,
  lazy,
  Suspense,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

const loadContent = () => import('./confirm-dialog-content');
const ConfirmDialogContent = lazy(() =>
  loadContent().then((module) => ({ default: module.ConfirmDialogContent })),
);
const preload = () => void loadContent().catch(() => undefined);

interface TriggerProps {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: (event: unknown) => void;
  onFocus?: (event: unknown) => void;
}

/**
 * Asks before something that cannot be undone. The trigger is any button;
 * focus stays in the dialog until it closes, Escape cancels. The dialog's code
 * (Radix Dialog, about 13 KB compressed) is not on the page's first load
 * (decision 034): hovering or focusing the trigger fetches it, a click opens
 * the dialog once it is here.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  busyLabel,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** Resolves when done; the dialog closes then. A rejection leaves it open for the caller to report. */
  onConfirm: () => Promise<void>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [opener, setOpener] = useState<HTMLElement | null>(null);

  const handleConfirm = async () => {
    setIsBusy(true);
    try {
      await onConfirm();
      setIsOpen(false);
    } catch {
      // The caller shows what went wrong.
    } finally {
      setIsBusy(false);
    }
  };

  const button = isValidElement<TriggerProps>(trigger)
    ? cloneElement(trigger as ReactElement<TriggerProps & Record<string, unknown>>, {
        'aria-haspopup': 'dialog',
        'aria-expanded': isOpen,
        onPointerEnter: (event: unknown) => {
          trigger.props.onPointerEnter?.(event);
          preload();
        },
        onFocus: (event: unknown) => {
          trigger.props.onFocus?.(event);
          preload();
        },
        onClick: (event: MouseEvent<HTMLElement>) => {
          trigger.props.onClick?.(event);
          if (event.defaultPrevented) return;
          setOpener(event.currentTarget);
          setIsOpen(true);
        },
      })
    : trigger;

  return (
    <>
      {button}
      {isOpen || opener ? (
        <Suspense fallback={null}>
          <ConfirmDialogContent
            isOpen={isOpen}
            isBusy={isBusy}
            onOpenChange={(open) => !isBusy && setIsOpen(open)}
            returnFocusTo={opener}
            title={title}
            description={description}
            confirmLabel={confirmLabel}
            busyLabel={busyLabel}
            onConfirm={() => void handleConfirm()}
          />
        </Suspense>
      ) : null}
    </>
  );
}
