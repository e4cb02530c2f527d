import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyField } from './copy-field';

const LINK = 'https://cervana.ai/?ref=ACME1234';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
});

describe('CopyField', () => {
  it('copies the value, says Copied and announces it', async () => {
    const writeText = vi.fn(async () => undefined);
    stubClipboard(writeText);
    render(<CopyField label="Your referral link" value={LINK} copyLabel="referral link" />);
    expect(screen.getByRole('group', { name: 'Your referral link' })).toHaveTextContent(LINK);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Copied the referral link.');
  });

  it('selects the value and says how to copy it when the clipboard is refused', async () => {
    stubClipboard(async () => {
      throw new DOMException('Denied', 'NotAllowedError');
    });
    render(<CopyField label="Your referral link" value={LINK} copyLabel="referral link" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(window.getSelection()?.toString()).toBe(LINK);
    expect(screen.getByRole('status')).toHaveTextContent(/The referral link is selected/);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});
