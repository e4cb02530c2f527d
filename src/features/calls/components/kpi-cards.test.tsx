import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildKpiCards } from '../model/kpi-cards';
import type { KpiSet } from '../model/kpis';
import { KpiCards } from './kpi-cards';

const set = (overrides: Partial<KpiSet>): KpiSet => ({
  calls: 0,
  answered: 0,
  resolved: 0,
  escalated: 0,
  voicemail: 0,
  missed: 0,
  resolution_rate: null,
  avg_handle_seconds: null,
  handled_seconds: 0,
  ...overrides,
});
const against = 'the previous 7 days';
const estimate = ({ answered, resolutionRate }: { answered: number; resolutionRate: number }) =>
  answered * resolutionRate * 10;

const cardNamed = (name: string) =>
  screen.getByRole('heading', { level: 3, name }).closest('li') as HTMLElement;

describe('KpiCards', () => {
  it('give each figure its change in words, not only in colour and arrows', () => {
    const cards = buildKpiCards(
      {
        current: set({
          calls: 60,
          answered: 50,
          resolved: 40,
          escalated: 6,
          missed: 10,
          resolution_rate: 0.8,
          avg_handle_seconds: 185,
        }),
        previous: set({
          calls: 44,
          answered: 40,
          resolved: 30,
          escalated: 8,
          missed: 4,
          resolution_rate: 0.75,
          avg_handle_seconds: 185,
        }),
      },
      { estimate, against, savingsBasis: 'at $10 a resolved call' },
    );
    render(<KpiCards cards={cards} against={against} hasPrevious />);

    const answered = cardNamed('Calls answered');
    expect(within(answered).getByText('50')).toBeInTheDocument();
    expect(answered).toHaveTextContent('Up 25% from the previous 7 days');
    expect(cardNamed('Resolution rate')).toHaveTextContent(
      'Up 5 percentage points from the previous 7 days',
    );
    expect(cardNamed('Hand-offs to a CSM')).toHaveTextContent('Down 25% from the previous 7 days');
    expect(cardNamed('Average handle time')).toHaveTextContent('3 minutes 5 seconds');
    expect(cardNamed('Average handle time')).toHaveTextContent(
      'No change from the previous 7 days',
    );
    expect(cardNamed('Estimated savings')).toHaveTextContent('$400');
    expect(cardNamed('Estimated savings')).toHaveTextContent('at $10 a resolved call');
  });

  it('say once that there is nothing to compare with, instead of on every card', () => {
    const cards = buildKpiCards(
      {
        current: set({
          calls: 3,
          answered: 3,
          resolved: 3,
          resolution_rate: 1,
          avg_handle_seconds: 60,
        }),
        previous: set({}),
      },
      { estimate, against, savingsBasis: '' },
    );
    render(<KpiCards cards={cards} against={against} hasPrevious={false} />);
    expect(screen.queryAllByText(/from the previous|Nothing to compare/)).toHaveLength(0);
    expect(
      screen.getByText('No calls in the previous 7 days, so no changes to show yet.'),
    ).toBeInTheDocument();
  });
});
