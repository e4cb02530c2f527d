import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@supabase/supabase-js';
import { PortalAccountMenu } from './account-trigger';

const user = {
  id: 'user-1',
  email: 'ada@example.com',
  app_metadata: { role: 'partner' },
  user_metadata: { full_name: 'Ada Lovelace' },
} as unknown as User;

describe('PortalAccountMenu', () => {
  it('shows the button without the menu code, and opens the menu on the first click', async () => {
    render(
      <MemoryRouter>
        <PortalAccountMenu user={user} />
      </MemoryRouter>,
    );
    const button = screen.getByRole('button', { name: /Ada Lovelace/ });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await userEvent.click(button);

    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Partner portal' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Account settings' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
  });
});
