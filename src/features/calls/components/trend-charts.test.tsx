import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrendDay } from '../model/trends';
import { CallsPerDayChart } from './calls-per-day-chart';
import { ResolutionRateChart } from './resolution-rate-chart';

const days: TrendDay[] = [
  { day: '2026-11-22', resolved: 6, escalated: 2, voicemail: 1, missed: 1 },
  { day: '2026-11-23', resolved: 0, escalated: 0, voicemail: 0, missed: 3 },
  { day: '2026-11-24', resolved: 3, escalated: 1, voicemail: 0, missed: 0 },
];

function renderChart(chart: React.ReactNode) {
  render(
    <section>
      <h2 id="chart-heading">The chart</h2>
      {chart}
    </section>,
  );
}

describe('the trend charts', () => {
  it('offer calls per day as a table to screen readers, named by their heading', () => {
    renderChart(
      <CallsPerDayChart days={days} periodLabel="the last 3 days" labelledBy="chart-heading" />,
    );
    expect(screen.getByRole('figure', { name: 'The chart' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Calls per day by outcome, the last 3 days' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayResolvedHanded to a CSMVoicemailMissedAll calls',
      'Nov 22, 2026621110',
      'Nov 23, 202600033',
      'Nov 24, 202631004',
    ]);
    // The legend sums the period by outcome.
    expect(screen.getByRole('list', { name: 'Calls by outcome' })).toHaveTextContent(
      'Resolved9Handed to a CSM3Voicemail1Missed4',
    );
  });

  it('draw one bar segment per outcome of a day, scaled to the axis', () => {
    const { container } = render(
      <CallsPerDayChart days={days} periodLabel="x" labelledBy="none" />,
    );
    // Ten calls at most: the axis tops out at 10, so a 6 is 60 units of 100 tall.
    const resolved = container.querySelectorAll('rect.fill-mint-400');
    expect([...resolved].map((rect) => rect.getAttribute('height'))).toEqual(['60', '30']);
    expect(container.querySelectorAll('rect.fill-danger-700')).toHaveLength(2);
  });

  it('give the resolution rate per day, with no rate on a day without answered calls', () => {
    renderChart(
      <ResolutionRateChart days={days} periodLabel="the last 3 days" labelledBy="chart-heading" />,
    );
    const table = screen.getByRole('table', { name: 'Resolution rate per day, the last 3 days' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'DayResolution rateResolvedAnswered',
      'Nov 22, 202666.7%69',
      'Nov 23, 2026no answered calls00',
      'Nov 24, 202675%34',
    ]);
  });
});
