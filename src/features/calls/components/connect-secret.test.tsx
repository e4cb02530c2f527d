import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ingestionStatusQuery, type IngestionStatus } from '../api/ingestion';
import type { Workspace } from '@/lib/workspace/workspace';
import { ConnectSecret } from './connect-secret';

const workspace: Workspace = {
  id: '6f1c2a7e-3b1d-4c55-9d0e-2a9f7b1c8e44',
  name: 'Northwind Logistics',
  timeZone: 'America/Chicago',
  role: 'owner',
};
const secret = `whsec_${'ab12'.repeat(16)}`;

function renderSecret(
  status: IngestionStatus,
  options: { role?: Workspace['role']; revealed?: string | null; onDismiss?: () => void } = {},
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  client.setQueryData(ingestionStatusQuery(workspace.id).queryKey, status);
  render(
    <QueryClientProvider client={client}>
      <ConnectSecret
        workspace={{ ...workspace, role: options.role ?? 'owner' }}
        revealedSecret={options.revealed ?? null}
        onReveal={() => undefined}
        onDismiss={options.onDismiss ?? (() => undefined)}
      />
    </QueryClientProvider>,
  );
}

const none: IngestionStatus = { has_secret: false, rotated_at: null, previous_valid_until: null };
const rotated: IngestionStatus = {
  has_secret: true,
  rotated_at: '2026-11-24T09:00:00Z',
  previous_valid_until: '2026-11-25T09:00:00Z',
};

describe('the signing secret panel', () => {
  it('offers owners and admins to create the first secret', () => {
    renderSecret(none);
    expect(screen.getByText('No secret yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create secret' })).toBeEnabled();
    renderSecret(none, { role: 'admin' });
    expect(screen.getAllByRole('button', { name: 'Create secret' })).toHaveLength(2);
  });

  it('tells members why they cannot change it', () => {
    renderSecret(rotated, { role: 'member' });
    expect(screen.queryByRole('button', { name: /secret/i })).toBeNull();
    expect(
      screen.getByText(/Only the workspace’s owners and admins can rotate the secret/),
    ).toHaveTextContent('you are a member of Northwind Logistics');
  });

  it('says since when the secret is set and until when the previous one works', () => {
    renderSecret(rotated);
    expect(screen.getByText(/A secret is set/).closest('p')).toHaveTextContent(/since .*2026/);
    expect(screen.getByText(/The previous secret keeps working until .*2026/)).toBeInTheDocument();
  });

  it('asks before rotating, saying what happens to the secrets in use', async () => {
    const user = userEvent.setup();
    renderSecret(rotated);
    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(dialog).toHaveTextContent('keeps working for 24 hours');
    expect(dialog).toHaveTextContent(
      /The secret before it, still accepted until .*, stops working now/,
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a new secret once, to copy, with a warning', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    renderSecret(rotated, { revealed: secret, onDismiss });
    expect(screen.getByText('Your new signing secret').nextElementSibling).toHaveTextContent(
      secret,
    );
    expect(screen.getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument();
    expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
