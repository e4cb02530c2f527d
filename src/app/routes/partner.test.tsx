import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pageMeta } from '@/config/page-meta';
import {
  commissionBasis,
  formatRate,
  highestRate,
  lowestRate,
  partnerTiers,
} from '@/config/partner-program';
import PartnerCtaSection from '@/features/marketing/components/partner-cta-section';
import { tiers as estimatorTiers } from '@/features/partners/model/program';
import PartnerPage from './partner';

/** Every percentage written in a piece of the page, as numbers. */
function percentages(text: string): number[] {
  return [...text.matchAll(/(\d+)(?:–(\d+))?\s?%/g)].flatMap((match) =>
    match.slice(1).filter(Boolean).map(Number),
  );
}

function renderInRouter(ui: ReactNode) {
  return render(<MemoryRouter>{ui}</MemoryRouter>);
}

describe('the partner program’s terms, on the landing page and on /partner', () => {
  it('/partner lists every tier at its rate, on the first-year subscription', () => {
    renderInRouter(<PartnerPage />);
    const table = screen.getByRole('table', { name: /partner tiers/i });
    for (const tier of partnerTiers) {
      const row = within(table).getByRole('row', { name: new RegExp(`^${tier.name}\\b`) });
      expect(row).toHaveTextContent(`${formatRate(tier.rate)} of the ${commissionBasis}`);
    }
    const intro = screen.getByRole('heading', { level: 1 }).parentElement!;
    expect(intro).toHaveTextContent(
      `${Math.round(lowestRate * 100)}–${formatRate(highestRate)} of the ${commissionBasis}`,
    );
    expect(document.body).not.toHaveTextContent(/recurring|of year one/i);
  });

  it('the landing page’s call to action promises the top rate, on the same basis', () => {
    renderInRouter(<PartnerCtaSection />);
    const section = screen.getByRole('region', { name: /bring cervana/i });
    expect(section).toHaveTextContent(`Up to ${formatRate(highestRate)}`);
    expect(section).toHaveTextContent(commissionBasis);
    expect(section).not.toHaveTextContent(/recurring/i);
    expect(Math.max(...percentages(section.textContent ?? ''))).toBe(highestRate * 100);
  });

  it('both pages name no rate the program does not pay', () => {
    const paid = partnerTiers.map((tier) => Math.round(tier.rate * 100));
    const { unmount } = renderInRouter(<PartnerCtaSection />);
    const landing = percentages(document.body.textContent ?? '');
    unmount();
    renderInRouter(<PartnerPage />);
    const table = screen.getByRole('table', { name: /partner tiers/i });
    const partner = percentages(table.textContent ?? '');
    expect(landing.length).toBeGreaterThan(0);
    expect(partner.sort()).toEqual([...paid].sort());
    for (const rate of landing) expect(paid).toContain(rate);
    expect(pageMeta.partner.description).toContain(formatRate(highestRate));
    expect(pageMeta.partner.description).not.toMatch(/recurring/i);
  });

  it('the earnings estimator computes with the same tiers, which come from the database', () => {
    expect(estimatorTiers).toBe(partnerTiers);
    expect(partnerTiers.map((tier) => tier.id)).toEqual(['registered', 'silver', 'gold']);
  });
});
