import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallDetail } from '../api/call-detail';
import { recordingUrlQuery } from '../api/recording-url';
import { CallDetailMedia } from './call-detail-media';

const call: CallDetail = {
  id: '0b7f5a52-8c1e-4d57-a7a4-4d1f1f0f7a11',
  workspace_id: '6f1c2a7e-3b1d-4c55-9d0e-2a9f7b1c8e44',
  provider_call_id: 'CA-123',
  direction: 'inbound',
  from_number: '+14155550100',
  to_number: '+14155550199',
  started_at: '2026-11-20T14:05:00Z',
  duration_seconds: 30,
  outcome: 'resolved',
  sentiment: 'positive',
  summary: 'A billing question.',
  extracted: {},
  transcript: [
    { speaker: 'agent', start_ms: 250, end_ms: 6500, text: 'Thanks for calling.' },
    { speaker: 'caller', start_ms: 7000, end_ms: 12800, text: 'My invoice shows more seats.' },
    { speaker: 'agent', start_ms: 13200, end_ms: 19700, text: 'Twelve seats were added.' },
  ],
  recording_path: 'samples/billing-question.mp3',
  is_sample: true,
  agent: { name: 'Cervana assistant' },
};

const SIGNED =
  'https://api.example.com/storage/v1/object/sign/call-recordings/samples/billing-question.mp3?token=t';

function renderMedia(
  detail: CallDetail,
  recording: { url: string; expiresAt: number } | null | undefined,
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  if (detail.recording_path && recording !== undefined) {
    client.setQueryData(recordingUrlQuery(detail.recording_path).queryKey, recording);
  }
  return render(
    <QueryClientProvider client={client}>
      <CallDetailMedia call={detail} />
    </QueryClientProvider>,
  );
}

const audio = () => document.querySelector('audio')!;
const current = () =>
  screen.getByRole('list', { name: 'Transcript lines' }).querySelectorAll('[aria-current="true"]');

/** The browser reports where playback is. */
function playedTo(seconds: number) {
  audio().currentTime = seconds;
  fireEvent.timeUpdate(audio());
}

describe('the call’s recording and transcript together', () => {
  let play: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
      this: HTMLMediaElement,
    ) {
      this.dispatchEvent(new Event('play'));
      return Promise.resolve();
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('plays the signed URL and highlights the line being spoken as playback moves', () => {
    renderMedia(call, { url: SIGNED, expiresAt: Date.now() + 3_600_000 });
    expect(audio()).toHaveAttribute('src', SIGNED);
    expect(current()).toHaveLength(0);

    playedTo(8);
    expect(current()).toHaveLength(1);
    expect(current()[0]).toHaveTextContent('My invoice shows more seats.');
    playedTo(12.9); // a pause after the caller: their line stays highlighted
    expect(current()[0]).toHaveTextContent('My invoice shows more seats.');
    playedTo(13.2);
    expect(current()[0]).toHaveTextContent('Twelve seats were added.');
    expect(screen.getByTestId('recording-time')).toHaveTextContent('0:13');
  });

  it('seeks to a line and plays from there when the line is clicked', async () => {
    const user = userEvent.setup();
    renderMedia(call, { url: SIGNED, expiresAt: Date.now() + 3_600_000 });
    await user.click(screen.getByRole('button', { name: /Twelve seats were added/ }));
    expect(audio().currentTime).toBe(13.2);
    expect(play).toHaveBeenCalledTimes(1);
    expect(current()[0]).toHaveTextContent('Twelve seats were added.');
    expect(screen.getByRole('button', { name: 'Pause the recording' })).toBeInTheDocument();
  });

  it('says there is no recording when the call has none, and shows the transcript as text', () => {
    renderMedia({ ...call, recording_path: null }, undefined);
    expect(screen.getByText('No recording for this call.')).toBeInTheDocument();
    expect(screen.queryByRole('slider')).toBeNull();
    const transcript = screen.getByRole('list', { name: 'Transcript lines' });
    expect(within(transcript).queryAllByRole('button')).toHaveLength(0);
    expect(transcript).toHaveTextContent('Twelve seats were added.');
  });

  it('says there is no recording when storage has no such object', () => {
    renderMedia(call, null);
    expect(screen.getByText('No recording for this call.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Play the recording' })).toBeNull();
  });

  it('says so when the browser cannot play a URL it was just given', async () => {
    renderMedia(call, { url: SIGNED, expiresAt: Date.now() + 3_600_000 });
    await act(async () => {
      audio().dispatchEvent(new Event('error'));
    });
    expect(screen.getByText('The recording could not be played.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
