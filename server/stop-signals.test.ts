import { afterEach, describe, expect, it } from 'vitest';
import { onStopSignals } from './stop-signals';

describe('onStopSignals', () => {
  let stopListening: (() => void) | undefined;
  afterEach(() => stopListening?.());

  function listen() {
    let clock = 0;
    const calls: string[] = [];
    stopListening = onStopSignals(
      {
        stop: (signal) => calls.push(`stop ${signal}`),
        repeated: (signal) => calls.push(`repeated ${signal}`),
        force: (signal) => calls.push(`force ${signal}`),
      },
      { repeatWindowMs: 1000, now: () => clock },
    );
    const deliver = (signal: NodeJS.Signals, at: number) => {
      clock = at;
      process.emit(signal, signal);
    };
    return { calls, deliver };
  }

  it('counts the same stop delivered twice within the window once, whichever the signal', () => {
    const { calls, deliver } = listen();
    deliver('SIGTERM', 0);
    deliver('SIGTERM', 3);
    deliver('SIGINT', 999);
    expect(calls).toEqual(['stop SIGTERM', 'repeated SIGTERM', 'repeated SIGINT']);
  });

  it('forces the exit on a signal after the window', () => {
    const { calls, deliver } = listen();
    deliver('SIGINT', 0);
    deliver('SIGINT', 1000);
    expect(calls).toEqual(['stop SIGINT', 'force SIGINT']);
  });
});
