import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { demoCalls } from '@/features/marketing/audio/demo-calls.generated';
import DashboardPage from './dashboard';

vi.mock('@/lib/auth/use-auth', () => ({ useAuth: () => ({ user: null }) }));

describe('the dashboard’s next steps', () => {
  it('describe the sample call the link opens, at its recorded length', () => {
    render(
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>,
    );
    const card = screen.getByRole('heading', {
      name: 'Hear Cervana on a sample call',
    }).parentElement!;
    // The audio demo opens on the first call: the card must describe that one.
    const opened = demoCalls[0]!;
    expect(card).toHaveTextContent(opened.title);
    expect(card).toHaveTextContent(`${Math.round(opened.durationSeconds)} seconds`);
    expect(card).not.toHaveTextContent(/two minutes|renewal check-in/i);
    expect(screen.getByRole('link', { name: /listen/i })).toHaveAttribute('href', '/#audio-demo');
  });
});
