import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { DemoScheduler } from './demo-scheduler';

const tomorrowAtTen = new Date(Date.now() + 86_400_000);
tomorrowAtTen.setUTCHours(10, 0, 0, 0);
const slot = {
  startsAt: tomorrowAtTen.toISOString(),
  endsAt: new Date(tomorrowAtTen.getTime() + 30 * 60_000).toISOString(),
};

vi.mock('../api/scheduler', () => ({
  fetchSlots: async () => [slot],
  bookDemo: async () => {
    throw new Error('not in this test');
  },
}));

function renderScheduler() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <DemoScheduler />
    </QueryClientProvider>,
  );
}

describe('the demo scheduler before a time is picked', () => {
  it('points to the step by its name, which holds at any width, not by where it sits', async () => {
    renderScheduler();
    const stepOne = screen.getByRole('heading', { name: '1. Pick a time' });
    const details = screen.getByRole('region', { name: '2. Your details' });
    // The two steps stack on a phone and sit side by side from `lg`: no left, right, above or below.
    expect(details).toHaveTextContent(/pick a time in step 1/i);
    expect(details).not.toHaveTextContent(/\b(left|right|above|below|beside)\b/i);
    expect(stepOne.textContent).toMatch(/^1\./);

    fireEvent.click(await screen.findByRole('button', { name: /on / }));
    expect(details).not.toHaveTextContent(/pick a time in step 1/i);
    expect(screen.getByLabelText(/work email/i)).toBeInTheDocument();
  });
});
