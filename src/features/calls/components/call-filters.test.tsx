import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CallFiltersPanel } from './call-filters';
import { useCallFilters } from './use-call-filters';

const CURSOR = 'after=2026-11-20T10%3A00%3A00Z%7E0f8b9d1e-3c2a-4b5d-9e6f-7a8b9c0d1e2f';

function Harness() {
  const { filters, setFilters } = useCallFilters();
  const location = useLocation();
  return (
    <>
      <CallFiltersPanel filters={filters} onUpdate={setFilters} />
      <output data-testid="search">{location.search}</output>
    </>
  );
}

function renderAt(search: string) {
  render(
    <MemoryRouter initialEntries={[`/dashboard/calls${search}`]}>
      <Harness />
    </MemoryRouter>,
  );
  return () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');
}

describe('the calls filters', () => {
  it('show what the URL says', () => {
    renderAt('?period=7d&q=refund&outcome=missed,escalated&direction=outbound&sort=longest');
    expect(screen.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByLabelText('Search calls')).toHaveValue('refund');
    expect(screen.getByRole('checkbox', { name: 'Missed' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Handed to a CSM' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Resolved' })).not.toBeChecked();
    expect(screen.getByLabelText('Direction')).toHaveValue('outbound');
    expect(screen.getByLabelText('Sort')).toHaveValue('longest');
  });

  it('write a change to the URL and start the list from its first page', async () => {
    const params = renderAt(`?period=90d&${CURSOR}`);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Missed' }));
    expect(params().get('outcome')).toBe('missed');
    expect(params().get('period')).toBe('90d');
    expect(params().get('after')).toBeNull();
  });

  it('count two quick clicks made before the page re-renders', () => {
    const params = renderAt('');
    act(() => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Missed' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Resolved' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Negative' }));
    });
    expect(params().get('outcome')).toBe('resolved,missed');
    expect(params().get('sentiment')).toBe('negative');
  });

  it('search once typing pauses, and clear with the other filters', async () => {
    const params = renderAt('?sort=oldest');
    await userEvent.type(screen.getByLabelText('Search calls'), 'late invoice');
    // Not on every keystroke.
    expect(params().get('q')).toBeNull();
    await waitFor(() => expect(params().get('q')).toBe('late invoice'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Voicemail' }));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(params().toString()).toBe('sort=oldest');
    expect(screen.getByLabelText('Search calls')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Voicemail' })).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('apply a phone number only once it is whole, and say what is missing', async () => {
    const params = renderAt('');
    const number = screen.getByLabelText('Phone number');
    await userEvent.type(number, '415 555');
    fireEvent.blur(number);
    expect(params().get('number')).toBeNull();
    expect(number).toHaveAccessibleDescription(/whole number with its country code/);

    await userEvent.clear(number);
    await userEvent.type(number, '+1 (415) 555-0100{Enter}');
    expect(params().get('number')).toBe('+14155550100');
    expect(number).not.toHaveAccessibleDescription();
  });

  it('take a custom period of two days in order, and refuse one backwards', async () => {
    const params = renderAt('');
    await userEvent.click(screen.getByRole('button', { name: 'Custom period' }));
    const form = screen.getByRole('form', { name: 'Custom period' });
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(from, { target: { value: '2026-11-10' } });
    fireEvent.change(to, { target: { value: '2026-11-01' } });
    fireEvent.submit(form);
    expect(
      screen.getByText('The first day must be on or before the last day.'),
    ).toBeInTheDocument();
    expect(params().get('from')).toBeNull();

    fireEvent.change(to, { target: { value: '2026-11-12' } });
    fireEvent.submit(form);
    expect(params().get('from')).toBe('2026-11-10');
    expect(params().get('to')).toBe('2026-11-12');
    expect(screen.getByRole('button', { name: 'Custom period' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(params().toString()).toBe('');
  });
});
