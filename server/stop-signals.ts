/**
 * SIGTERM and SIGINT, counted as an operator means them. One Ctrl-C or one stop
 * of a process group often arrives twice within milliseconds: the terminal or
 * the service manager signals every process of the group, and `npm start`
 * forwards the same signal to its child. Those count once; only a deliberate
 * second signal, after the window, forces the exit.
 */

/** Signals closer together than this are one. */
export const REPEAT_WINDOW_MS = 1000;

export interface StopSignalHandlers {
  /** The first signal: drain and stop. */
  stop(signal: NodeJS.Signals): void;
  /** The same stop delivered again within the window: nothing to do but say so. */
  repeated?(signal: NodeJS.Signals): void;
  /** A second signal after the window: exit now. */
  force(signal: NodeJS.Signals): void;
}

/** Calls one handler per signal received; returns a function that stops listening. */
export function onStopSignals(
  handlers: StopSignalHandlers,
  options: { repeatWindowMs?: number; now?: () => number } = {},
): () => void {
  const windowMs = options.repeatWindowMs ?? REPEAT_WINDOW_MS;
  const now = options.now ?? Date.now;
  let firstAt: number | undefined;
  const listener = (signal: NodeJS.Signals) => {
    const at = now();
    if (firstAt === undefined) {
      firstAt = at;
      handlers.stop(signal);
    } else if (at - firstAt < windowMs) {
      handlers.repeated?.(signal);
    } else {
      handlers.force(signal);
    }
  };
  process.on('SIGTERM', listener);
  process.on('SIGINT', listener);
  return () => {
    process.off('SIGTERM', listener);
    process.off('SIGINT', listener);
  };
}
