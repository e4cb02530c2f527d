import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { copyText } from '@/components/ui/copy-button';

/** How long the button says "Copied". */
const CONFIRM_MS = 2500;

/** Selects the text of an element, so a refused copy leaves it one keystroke away. */
function selectContents(element: HTMLElement) {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** A link may break before its query ('?ref=…'), so a phone never splits the code itself. */
function BreakableValue({ value }: { value: string }) {
  const [head, ...rest] = value.split(/(?=\?)/);
  if (rest.length === 0) return <>{value}</>;
  return (
    <>
      {head}
      <wbr />
      {rest.join('')}
    </>
  );
}

/**
 * A value a partner pastes elsewhere (their link, their code), shown whole with
 * a Copy button. "Copied" is shown on the button and announced; when the
 * browser refuses the clipboard, the value is selected and the partner is told
 * to copy it themselves.
 */
export function CopyField({
  label,
  value,
  copyLabel,
  hint,
}: {
  label: string;
  value: string;
  /** What is copied, for the announcement: 'referral link'. */
  copyLabel: string;
  hint?: string;
}) {
  const id = useId();
  const valueRef = useRef<HTMLSpanElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const handleCopy = async () => {
    try {
      await copyText(value);
      setState('copied');
    } catch {
      setState('refused');
      if (valueRef.current) {
        valueRef.current.focus();
        selectContents(valueRef.current);
      }
    }
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="grid min-w-0 gap-1.5">
      <p id={`${id}-label`} className="text-sm font-semibold text-ink-900">
        {label}
      </p>
      <div className="flex flex-wrap items-start gap-2 sm:flex-nowrap">
        <span
          ref={valueRef}
          tabIndex={-1}
          aria-labelledby={`${id}-label`}
          className="min-w-0 flex-1 basis-full rounded-lg border border-sand-200 bg-sand-50 px-3 py-2 font-mono text-sm break-words text-ink-900 outline-azure-500 select-all focus-visible:outline-2 sm:basis-auto"
        >
          <BreakableValue value={value} />
        </span>
        <Button
          variant="secondary"
          className="min-w-28"
          onClick={() => void handleCopy()}
          aria-describedby={`${id}-label`}
        >
          {state === 'copied' ? (
            <Check aria-hidden="true" className="size-4 text-mint-600" />
          ) : (
            <Copy aria-hidden="true" className="size-4" />
          )}
          {state === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {hint ? <p className="text-sm text-ink-600">{hint}</p> : null}
      <p role="status" aria-live="polite" className="text-sm text-danger-700 empty:hidden">
        {state === 'copied' ? (
          <span className="sr-only">Copied the {copyLabel}.</span>
        ) : state === 'refused' ? (
          `Your browser did not let us copy. The ${copyLabel} is selected: press Ctrl+C (⌘C on a Mac) to copy it.`
        ) : null}
      </p>
    </div>
  );
}
