import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerDeal } from '../api/deal-registrations';
import { DealRegistrationForm } from './deal-registration-form';

vi.mock('../api/deal-registrations', () => ({
  registerDeal: vi.fn(),
  registrationsKey: ['partner-portal', 'registrations'],
}));

afterEach(() => vi.mocked(registerDeal).mockReset());

function renderForm(onTierRefused = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <h2 id="register-heading">Register a deal</h2>
      <DealRegistrationForm onTierRefused={onTierRefused} />
    </QueryClientProvider>,
  );
  return onTierRefused;
}

async function fillIn() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Prospect’s company'), 'Northwind');
  await user.type(screen.getByLabelText('Contact’s name'), 'Ada Byron');
  await user.type(screen.getByLabelText('Contact’s work email'), 'ada@northwind.test');
  await user.selectOptions(screen.getByLabelText('Their team’s size'), '21-50');
  await user.selectOptions(screen.getByLabelText('Their calls a month'), '500-2000');
  return user;
}

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Register this deal' }));

describe('DealRegistrationForm', () => {
  it('checks in the browser first and moves focus to the first mistake', async () => {
    renderForm();
    const user = userEvent.setup();
    await submit(user);
    expect(screen.getByLabelText('Prospect’s company')).toHaveFocus();
    expect(screen.getByLabelText('Prospect’s company')).toHaveAccessibleDescription(
      'Please enter the prospect’s company.',
    );
    expect(registerDeal).not.toHaveBeenCalled();
  });

  it('shows a refusal of the whole registration above the button, keeping every answer', async () => {
    vi.mocked(registerDeal).mockRejectedValueOnce({
      code: 'PT409',
      message:
        'Another partner has already registered this prospect, so it cannot be registered twice.',
      details: 'company',
    });
    renderForm();
    const user = await fillIn();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Another partner has already registered this prospect',
    );
    expect(screen.getByLabelText('Prospect’s company')).toHaveValue('Northwind');
    expect(screen.getByLabelText('Contact’s work email')).toHaveValue('ada@northwind.test');
  });

  it('puts a refused value under its field', async () => {
    vi.mocked(registerDeal).mockRejectedValueOnce({
      code: '22023',
      message: 'Please enter a valid email address, like jane@company.com.',
      details: 'contact_email',
    });
    renderForm();
    const user = await fillIn();
    await submit(user);
    const email = screen.getByLabelText('Contact’s work email');
    await vi.waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAccessibleDescription(
      'Please enter a valid email address, like jane@company.com.',
    );
  });

  it('says when registration is not open at the partner’s tier', async () => {
    vi.mocked(registerDeal).mockRejectedValueOnce({
      code: '42501',
      message:
        'Deal registration opens at the Silver tier. Win 5 deals in twelve months to reach it.',
      details: 'tier',
    });
    const onTierRefused = renderForm();
    const user = await fillIn();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Deal registration opens at the Silver tier.',
    );
    expect(onTierRefused).toHaveBeenCalledOnce();
  });

  it('confirms a registration and empties the form', async () => {
    vi.mocked(registerDeal).mockResolvedValueOnce({
      id: 'r1',
      company: 'Northwind',
      contact_name: 'Ada Byron',
      contact_email: 'ada@northwind.test',
      team_size: '21-50',
      monthly_call_volume: '500-2000',
      status: 'pending',
      decision_reason: null,
      created_at: '2026-11-27T10:00:00Z',
    });
    renderForm();
    const user = await fillIn();
    await user.type(screen.getByLabelText('Notes for our sales team (optional)'), 'Hot lead');
    await submit(user);
    expect(await screen.findByText('Northwind is registered')).toBeVisible();
    expect(registerDeal).toHaveBeenCalledWith({
      company: 'Northwind',
      contactName: 'Ada Byron',
      contactEmail: 'ada@northwind.test',
      teamSize: '21-50',
      monthlyCallVolume: '500-2000',
      notes: 'Hot lead',
    });
    expect(screen.getByLabelText('Prospect’s company')).toHaveValue('');
    expect(screen.getByLabelText('Notes for our sales team (optional)')).toHaveValue('');
  });
});
