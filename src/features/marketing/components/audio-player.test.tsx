import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoCalls } from '../audio/demo-calls.generated';
import { SEEK_PAGE_SECONDS, SEEK_STEP_SECONDS } from '@/components/media/seek-slider';
import { AudioPlayer } from './audio-player';

const call = demoCalls[0]!;

function renderPlayer() {
  render(<AudioPlayer call={call} sources={{ mp3: '/call.mp3' }} />);
  return screen.getByRole('slider', { name: 'Position in the call' });
}

const position = (slider: HTMLElement) => Number((slider as HTMLInputElement).value);

describe('the audio player’s position slider under the keyboard', () => {
  it('steps a few seconds per arrow key, more per Page key, as the WAI-ARIA slider does', () => {
    const slider = renderPlayer();
    const audio = document.querySelector('audio')!;
    for (let press = 0; press < 5; press++) fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(position(slider)).toBe(5 * SEEK_STEP_SECONDS);
    expect(audio.currentTime).toBe(5 * SEEK_STEP_SECONDS);
    expect(slider).toHaveAttribute('aria-valuetext', '25 seconds of 51 seconds');
    expect(screen.getByTestId('audio-time')).toHaveTextContent('0:25');

    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(position(slider)).toBe(4 * SEEK_STEP_SECONDS);
    fireEvent.keyDown(slider, { key: 'ArrowUp' });
    expect(position(slider)).toBe(5 * SEEK_STEP_SECONDS);
    fireEvent.keyDown(slider, { key: 'ArrowDown' });
    expect(position(slider)).toBe(4 * SEEK_STEP_SECONDS);

    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(position(slider)).toBe(4 * SEEK_STEP_SECONDS + SEEK_PAGE_SECONDS);
    fireEvent.keyDown(slider, { key: 'PageDown' });
    expect(position(slider)).toBe(4 * SEEK_STEP_SECONDS);
    expect(SEEK_STEP_SECONDS).toBeGreaterThanOrEqual(2);
    expect(SEEK_PAGE_SECONDS).toBeGreaterThan(SEEK_STEP_SECONDS);
  });

  it('goes to the start with Home and the end with End, and stops there', () => {
    const slider = renderPlayer();
    fireEvent.keyDown(slider, { key: 'End' });
    expect(position(slider)).toBeCloseTo(call.durationSeconds, 1);
    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(position(slider)).toBeCloseTo(call.durationSeconds, 1);
    expect(slider).toHaveAttribute('aria-valuetext', '51 seconds of 51 seconds');

    fireEvent.keyDown(slider, { key: 'Home' });
    expect(position(slider)).toBe(0);
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(position(slider)).toBe(0);
    expect(slider).toHaveAttribute('aria-valuetext', '0 seconds of 51 seconds');
  });

  it('leaves other keys, and modified ones, to the browser', () => {
    const slider = renderPlayer();
    expect(fireEvent.keyDown(slider, { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(slider, { key: 'ArrowRight', ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(slider, { key: 'ArrowRight' })).toBe(false); // default prevented
  });
});
