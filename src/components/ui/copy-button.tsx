import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from './button';

/** How long the button says "Copied". */
const CONFIRM_MS = 2000;

/**
 * Writes to the clipboard. The Clipboard API needs a secure context (HTTPS or
 * localhost); a self-hosted server on a plain-HTTP address falls back to the
 * older copy command.
 */
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const isCopied = document.execCommand('copy');
  area.remove();
  if (!isCopied) throw new Error('The browser refused to copy.');
}

/** A "Copy" button for one value; `label` names the value for screen readers ('workspace id'). */
export function CopyButton({
  value,
  label,
  className,
}: {
  value: string;
  label: string;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const handleCopy = async () => {
    try {
      await copyText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  const text = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy';
  return (
    <>
      <Button
        variant="secondary"
        className={className}
        onClick={() => void handleCopy()}
        aria-label={`${text} ${label}`}
      >
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4 text-mint-600" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {text}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied'
          ? `Copied the ${label}.`
          : state === 'failed'
            ? `Could not copy the ${label}: select it and copy it yourself.`
            : ''}
      </span>
    </>
  );
}
