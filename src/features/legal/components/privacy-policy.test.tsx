import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { privacyPolicy } from '../content';
import { PrivacyPolicy } from './privacy-policy';

const { sections } = privacyPolicy;

describe('PrivacyPolicy', () => {
  it('opens with the title and the date it was last updated', () => {
    render(<PrivacyPolicy />);

    expect(screen.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    const date = screen.getByText('November 21, 2026');
    expect(date.tagName).toBe('TIME');
    expect(date).toHaveAttribute('datetime', '2026-11-21');
    expect(date.parentElement).toHaveTextContent('Last updated November 21, 2026');
  });

  it('sums the policy up in an "In short" box', () => {
    render(<PrivacyPolicy />);

    const box = screen.getByRole('region', { name: 'In short' });
    const points = within(box).getAllByRole('listitem');
    expect(points).toHaveLength(privacyPolicy.summary.length);
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(points.length).toBeLessThanOrEqual(6);
  });

  it('shows each section under its own h2, with its anchor id', () => {
    render(<PrivacyPolicy />);

    for (const section of sections) {
      const heading = screen.getByRole('heading', { level: 2, name: section.heading });
      expect(heading).toHaveAttribute('id', section.id);
    }
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('links the table of contents to every section, in order', () => {
    render(<PrivacyPolicy />);

    const toc = screen.getByRole('navigation', { name: 'On this page' });
    const links = within(toc).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(sections.map((s) => s.heading));
    expect(links.map((link) => link.getAttribute('href'))).toEqual(sections.map((s) => `#${s.id}`));
    for (const section of sections) {
      expect(document.getElementById(section.id)).not.toBeNull();
    }
  });

  it.each([privacyPolicy.dataFlow, privacyPolicy.websiteDataFlow])(
    'draws "$title" as an ordered list of steps',
    (flow) => {
      render(<PrivacyPolicy />);

      const list = screen.getByRole('list', { name: flow.title });
      expect(list.tagName).toBe('OL');
      const steps = within(list).getAllByRole('listitem');
      expect(steps).toHaveLength(flow.steps.length);
      flow.steps.forEach((step, index) => {
        expect(steps[index]).toHaveTextContent(step.label);
        expect(steps[index]).toHaveTextContent(step.description);
      });
    },
  );

  it('gives the privacy email as a mailto link, and the postal address', () => {
    render(<PrivacyPolicy />);

    const links = screen.getAllByRole('link', { name: 'privacy@cervana.ai' });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toHaveAttribute('href', 'mailto:privacy@cervana.ai');
    expect(screen.getByText(/548 Market Street, Suite 91720/)).toBeInTheDocument();
  });
});

describe('privacyPolicy content', () => {
  it('has unique kebab-case section ids', () => {
    const ids = sections.map((s) => s.id);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('covers every required topic', () => {
    const headings = sections.map((s) => s.heading.toLowerCase()).join(' | ');
    for (const topic of [
      'who we are',
      'what we collect',
      'recordings',
      'legal bases',
      'ai',
      'cookies',
      'share',
      'international',
      'how long',
      'safe',
      'rights',
      'children',
      'changes',
      'contact',
    ]) {
      expect(headings).toContain(topic);
    }
  });

  it('has no placeholders', () => {
    expect(JSON.stringify(privacyPolicy)).not.toMatch(/\[[A-Z][^\]]*\]|lorem|TODO|TBD/i);
  });
});
