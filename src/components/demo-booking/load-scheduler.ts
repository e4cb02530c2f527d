/**
 * The external scheduling widget (Calendly): its script is added to the page
 * only when a visitor asks for it, and only if it is not there already.
 */

interface SchedulerWidget {
  initPopupWidget(options: { url: string }): void;
}

declare global {
  interface Window {
    Calendly?: SchedulerWidget;
  }
}

export const SCHEDULER_PRIMARY_COLOR = '00a2ff';
const LOAD_TIMEOUT_MS = 8000;

export class SchedulerUnavailableError extends Error {
  override name = 'SchedulerUnavailableError';
}

let loading: Promise<SchedulerWidget> | undefined;

function addStylesheet(scriptUrl: string): void {
  const href = scriptUrl.replace(/\.js(\?.*)?$/, '.css');
  if (href === scriptUrl || document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/** Resolves with the widget once its script has run; rejects when it cannot load in time. */
export function loadScheduler(
  scriptUrl: string,
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<SchedulerWidget> {
  if (window.Calendly) return Promise.resolve(window.Calendly);
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    return Promise.reject(new SchedulerUnavailableError('offline'));
  }
  loading ??= new Promise<SchedulerWidget>((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>(`script[src="${scriptUrl}"]`);
    if (!script) {
      script = document.createElement('script');
      script.src = scriptUrl;
      script.async = true;
      document.head.append(script);
      addStylesheet(scriptUrl);
    }
    const element = script;
    const fail = (reason: string) => {
      window.clearTimeout(timer);
      element.remove(); // a later click tries afresh
      reject(new SchedulerUnavailableError(reason));
    };
    const timer = window.setTimeout(() => fail('timeout'), timeoutMs);
    element.addEventListener('error', () => fail('blocked or unreachable'), { once: true });
    element.addEventListener(
      'load',
      () => {
        window.clearTimeout(timer);
        if (window.Calendly) resolve(window.Calendly);
        else fail('script loaded without the widget');
      },
      { once: true },
    );
  }).finally(() => {
    loading = undefined;
  });
  return loading;
}

/** The 30-minute booking page in Cervana's colour. */
export function bookingPageUrl(schedulerUrl: string): string {
  const url = new URL(schedulerUrl);
  url.searchParams.set('primary_color', SCHEDULER_PRIMARY_COLOR);
  return url.toString();
}
