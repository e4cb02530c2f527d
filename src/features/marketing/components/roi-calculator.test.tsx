import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RoiCalculator } from './roi-calculator';

afterEach(() => window.history.replaceState(null, '', '/'));

function callsField() {
  return screen.getByRole('textbox', { name: 'Customer calls per month' });
}

/** The sentences an input is described by (its hint, then its error). */
function descriptionOf(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ');
}

describe('the ROI calculator refuses a figure it cannot use, at the field', () => {
  it('computes with a valid figure and puts it in the URL', () => {
    render(<RoiCalculator />);
    fireEvent.change(callsField(), { target: { value: '4500' } });
    expect(callsField()).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('roi-monthly')).toHaveTextContent('$23,400');
    expect(window.location.search).toContain('calls=4500');
  });

  it('refuses a negative number with a sentence, and keeps the last result', () => {
    render(<RoiCalculator />);
    fireEvent.change(callsField(), { target: { value: '-200' } });
    const input = callsField();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(input)).toBe(
      'Inbound calls to support and CS lines | The calls per month cannot be negative.',
    );
    // Not $0: the estimate stays on the last figures it could use, and says why.
    expect(screen.getByTestId('roi-monthly')).toHaveTextContent('$10,400');
    expect(screen.getByTestId('roi-refused')).toHaveTextContent(
      'Not updated: The calls per month cannot be negative.',
    );
    expect(window.location.search).not.toContain('calls=');

    // Leaving the field keeps what was typed and why it was refused.
    fireEvent.blur(input);
    expect(callsField()).toHaveValue('-200');
    expect(callsField()).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(callsField(), { target: { value: '3000' } });
    expect(callsField()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByTestId('roi-refused')).toBeNull();
    expect(screen.getByTestId('roi-monthly')).toHaveTextContent('$15,600');
  });

  it('refuses what is not a number', () => {
    render(<RoiCalculator />);
    fireEvent.change(callsField(), { target: { value: '20o0' } });
    expect(callsField()).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.getByText('Please enter the calls per month as a number, such as 2,000.'),
    ).toBeInTheDocument();
  });

  it('refuses a figure above the field’s limit', () => {
    render(<RoiCalculator />);
    const resolved = screen.getByRole('textbox', { name: 'Calls Cervana resolves' });
    fireEvent.change(resolved, { target: { value: '140' } });
    expect(resolved).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(resolved)).toContain(
      'The share of calls resolved cannot be more than 100%.',
    );
    expect(screen.getByTestId('roi-monthly')).toHaveTextContent('$10,400');
  });

  it('lets a field be cleared to retype, and refuses it empty once left', () => {
    render(<RoiCalculator />);
    fireEvent.change(callsField(), { target: { value: '' } });
    expect(callsField()).not.toHaveAttribute('aria-invalid');
    fireEvent.blur(callsField());
    expect(callsField()).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(callsField())).toContain('Please enter the calls per month.');
  });
});
