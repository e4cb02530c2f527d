import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster, VISIBLE_TOASTS, showToast } from '@/components/ui/toaster';
import { GC_TIME_MS, STALE_TIME_MS, createQueryClient } from '@/lib/query-client';
import { renderAsync } from '@/testing/render';
import { App } from './app';
import { landingSections } from './routes/landing';

describe('the app providers', () => {
  it('keeps data fresh for 5 minutes and in memory for 10', () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(STALE_TIME_MS).toBe(5 * 60 * 1000);
    expect(GC_TIME_MS).toBe(10 * 60 * 1000);
    expect(defaults?.staleTime).toBe(STALE_TIME_MS);
    expect(defaults?.gcTime).toBe(GC_TIME_MS);
  });

  it('shows at most three toasts at once, loading the toast library with the first one', async () => {
    await renderAsync(<Toaster />);
    expect(screen.queryByRole('region', { name: /notifications/i })).not.toBeInTheDocument();
    const shown5 = Promise.all([1, 2, 3, 4, 5].map((n) => showToast('success', `Message ${n}`)));
    await screen.findByText('Message 5', {}, { timeout: 3000 });
    await act(() => shown5);
    const shown = document.querySelectorAll('[data-sonner-toast][data-visible="true"]');
    expect(VISIBLE_TOASTS).toBe(3);
    expect(shown).toHaveLength(3);
  });

  it('renders the landing page inside the providers', async () => {
    window.history.pushState({}, '', '/');
    await renderAsync(<App />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/customer success/i);
    // The sections below the hero load on their own; let every import finish
    // inside the test, or one lands after the environment is torn down.
    await act(() => Promise.all(landingSections.map((section) => section.loader())));
  });
});
