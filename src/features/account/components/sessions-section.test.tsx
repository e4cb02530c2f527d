import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '@/lib/auth/sign-out';
import { SessionsSection } from './sessions-section';

vi.mock('@/lib/auth/sign-out', () => ({ signOut: vi.fn() }));

function renderSection() {
  return render(
    <MemoryRouter>
      <SessionsSection />
    </MemoryRouter>,
  );
}

afterEach(() => vi.mocked(signOut).mockReset());

describe('signing out everywhere else', () => {
  it('ends the other sessions, says so, and keeps every button off while it runs', async () => {
    let finish = () => {};
    vi.mocked(signOut).mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    renderSection();
    const sessions = screen.getByRole('region', { name: 'Sessions' });

    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(signOut).toHaveBeenCalledExactlyOnceWith('others');
    const pending = screen.getByRole('button', { name: 'Signing out...' });
    expect(pending).toBeDisabled();
    expect(pending).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Sign out of this device' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeDisabled();

    finish();
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Signed out of every other device and browser.',
    );
    expect(sessions).toContainElement(screen.getByRole('status'));
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();
  });

  it('shows why it failed, and lets the user try again', async () => {
    vi.mocked(signOut).mockRejectedValueOnce(
      Object.assign(new Error('Failed to fetch'), { name: 'AuthRetryableFetchError', status: 0 }),
    );
    renderSection();

    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByRole('alert')).not.toBeEmptyDOMElement();
    expect(screen.queryByText('Signed out of every other device and browser.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();

    vi.mocked(signOut).mockResolvedValueOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Signed out of every other device and browser.',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
