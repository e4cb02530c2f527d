import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEEK_PAGE_SECONDS, SEEK_STEP_SECONDS } from '@/components/media/seek-slider';
import { useAudioPlayback } from '@/components/media/use-audio-playback';
import { RecordingPlayer } from './recording-player';

const LENGTH = 184; // 3:04

function Player() {
  return <RecordingPlayer playback={useAudioPlayback({ initialDuration: LENGTH })} />;
}

/** jsdom cannot play media: play() and pause() flip `paused` and fire the events a browser would. */
function stubMedia() {
  const paused = new WeakMap<HTMLMediaElement, boolean>();
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    return paused.get(this) ?? true;
  });
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  return { play, pause };
}

const slider = () => screen.getByRole('slider', { name: 'Position in the recording' });
const position = () => Number((slider() as HTMLInputElement).value);
const audio = () => document.querySelector('audio')!;

describe('the recording player under the keyboard', () => {
  let media: ReturnType<typeof stubMedia>;
  beforeEach(() => {
    media = stubMedia();
  });
  afterEach(() => vi.restoreAllMocks());

  it('moves through the recording with the arrows, Page keys, Home and End', () => {
    render(<Player />);
    expect(screen.getByTestId('recording-duration')).toHaveTextContent('3:04');
    fireEvent.keyDown(slider(), { key: 'ArrowRight' });
    fireEvent.keyDown(slider(), { key: 'ArrowUp' });
    expect(position()).toBe(2 * SEEK_STEP_SECONDS);
    expect(audio().currentTime).toBe(2 * SEEK_STEP_SECONDS);
    fireEvent.keyDown(slider(), { key: 'PageUp' });
    expect(position()).toBe(2 * SEEK_STEP_SECONDS + SEEK_PAGE_SECONDS);
    expect(screen.getByTestId('recording-time')).toHaveTextContent('0:25');
    expect(slider()).toHaveAttribute('aria-valuetext', '25 seconds of 3 minutes 4 seconds');
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    fireEvent.keyDown(slider(), { key: 'PageDown' });
    expect(position()).toBe(5);

    fireEvent.keyDown(slider(), { key: 'End' });
    expect(position()).toBe(LENGTH);
    expect(screen.getByTestId('recording-time')).toHaveTextContent('3:04');
    fireEvent.keyDown(slider(), { key: 'ArrowRight' });
    expect(position()).toBe(LENGTH);
    fireEvent.keyDown(slider(), { key: 'Home' });
    expect(position()).toBe(0);
    fireEvent.keyDown(slider(), { key: 'ArrowDown' });
    expect(position()).toBe(0);
  });

  it('leaves Tab and modified keys to the browser', () => {
    render(<Player />);
    expect(fireEvent.keyDown(slider(), { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(slider(), { key: 'ArrowRight', altKey: true })).toBe(true);
    expect(position()).toBe(0);
  });

  it('plays and pauses with Space or Enter on the play button', async () => {
    const user = userEvent.setup();
    render(<Player />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Play the recording' })).toHaveFocus();
    await user.keyboard(' ');
    expect(media.play).toHaveBeenCalledTimes(1);
    const pauseButton = screen.getByRole('button', { name: 'Pause the recording' });
    expect(pauseButton).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(media.pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play the recording' })).toBeInTheDocument();
  });

  it('changes speed from the keyboard, and says which speed is on', async () => {
    const user = userEvent.setup();
    render(<Player />);
    const speeds = screen.getByRole('group', { name: 'Speed' });
    expect(speeds).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1×' })).toHaveAttribute('aria-pressed', 'true');
    await user.tab(); // play
    await user.tab(); // position
    await user.tab(); // 1×
    await user.tab(); // 1.5×
    expect(screen.getByRole('button', { name: '1.5×' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(audio().playbackRate).toBe(1.5);
    expect(screen.getByRole('button', { name: '1.5×' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: '1×' })).toHaveAttribute('aria-pressed', 'false');
    await user.tab();
    await user.keyboard(' ');
    expect(audio().playbackRate).toBe(2);
    // A new source keeps the speed (the element starts a load at its default rate).
    expect(audio().defaultPlaybackRate).toBe(2);
  });
});
