import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CallDetailExtracted } from './call-detail-extracted';

/** The definition a term has in the list. */
function valueOf(term: string): HTMLElement {
  const dt = screen.getByText(term, { selector: 'dt' });
  return dt.nextElementSibling as HTMLElement;
}

describe('the extracted fields', () => {
  it('reads each field by a label made from its key, values in words', () => {
    render(
      <CallDetailExtracted
        extracted={{
          account: 'Northwind Logistics',
          seats_before: 52,
          renewalRisk: 'high',
          confirmed: true,
          follow_up: null,
        }}
      />,
    );
    expect(valueOf('Account')).toHaveTextContent('Northwind Logistics');
    expect(valueOf('Seats before')).toHaveTextContent('52');
    expect(valueOf('Renewal risk')).toHaveTextContent('high');
    expect(valueOf('Confirmed')).toHaveTextContent('Yes');
    expect(valueOf('Follow up')).toHaveTextContent('—');
  });

  it('renders nested objects as nested lists and lists of values as text', () => {
    render(
      <CallDetailExtracted
        extracted={{
          contact: { name: 'Tom', email_address: 'tom@example.com' },
          products: ['CRM', 'Dialer'],
          tickets: [{ id: 'T-1', status: 'open' }],
        }}
      />,
    );
    const contact = valueOf('Contact');
    expect(within(contact).getByText('Name', { selector: 'dt' })).toBeInTheDocument();
    expect(
      within(contact).getByText('Email address', { selector: 'dt' }).nextElementSibling,
    ).toHaveTextContent('tom@example.com');
    expect(valueOf('Products')).toHaveTextContent('CRM, Dialer');
    const ticket = within(valueOf('Tickets')).getByRole('listitem');
    expect(
      within(ticket).getByText('Status', { selector: 'dt' }).nextElementSibling,
    ).toHaveTextContent('open');
    expect(screen.queryByText('[object Object]')).toBeNull();
  });

  it('says when nothing was extracted', () => {
    render(<CallDetailExtracted extracted={{}} />);
    expect(screen.getByText('Nothing was extracted from this call.')).toBeInTheDocument();
  });
});
