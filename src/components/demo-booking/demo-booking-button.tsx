import { useState, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { buttonStyles, type ButtonSize, type ButtonVariant } from '@/components/ui/button-styles';
import { paths } from '@/config/paths';
import { loadRuntimeConfig } from '@/lib/runtime-config';
import { SchedulerUnavailableError, bookingPageUrl, loadScheduler } from './load-scheduler';

export const DEMO_BUTTON_LABEL = 'Book a 15-min demo';
export const SCHEDULER_BUSY_LABEL = 'Opening scheduler...';
/** `/demo` explains why it opened instead of the widget when this is in its query. */
export const SCHEDULER_FALLBACK_QUERY = 'scheduler=unavailable';

export interface DemoBookingButtonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  children?: ReactNode;
  /** Called once the scheduler has opened or the visitor was sent to /demo (e.g. to close a menu). */
  onChoose?: () => void;
}

/**
 * Opens the scheduling widget's 30-minute booking page in a popup. It is a
 * real link to /demo: without JavaScript, or when the widget cannot load
 * (offline, blocked, too slow), the visitor lands on our own scheduler.
 */
export function DemoBookingButton({
  variant,
  size,
  className,
  children,
  onChoose,
}: DemoBookingButtonProps) {
  const navigate = useNavigate();
  const [isBusy, setIsBusy] = useState(false);

  async function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    if (isBusy) return;
    setIsBusy(true);
    try {
      const { scheduler } = await loadRuntimeConfig();
      if (!scheduler) throw new SchedulerUnavailableError('no scheduler configured');
      const widget = await loadScheduler(scheduler.scriptUrl);
      widget.initPopupWidget({ url: bookingPageUrl(scheduler.url) });
    } catch {
      navigate(`${paths.demo}?${SCHEDULER_FALLBACK_QUERY}`);
    } finally {
      setIsBusy(false);
      onChoose?.(); // after, so a menu stays open while 'Opening scheduler...' shows
    }
  }

  return (
    <a
      href={paths.demo}
      onClick={handleClick}
      aria-busy={isBusy}
      className={buttonStyles({ variant, size, className })}
    >
      {isBusy ? SCHEDULER_BUSY_LABEL : (children ?? DEMO_BUTTON_LABEL)}
    </a>
  );
}
