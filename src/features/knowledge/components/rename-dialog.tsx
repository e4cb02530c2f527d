import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { KnowledgeDocument } from '../api/list-documents';
import { splitName } from '../model/document-labels';
import { nameProblem } from '../model/document-rules';

/**
 * Renames a document. The extension stays (the bytes are still that type),
 * so only the part before it is edited; the rules are the upload's, checked
 * as the person types, and the server's refusal (a name just taken) shows
 * under the field.
 */
export function RenameDialog({
  trigger,
  document,
  takenNames,
  onRename,
}: {
  trigger: ReactNode;
  document: KnowledgeDocument;
  takenNames: readonly string[];
  /** Rejects with a sentence to show under the field. */
  onRename: (newName: string) => Promise<void>;
}) {
  const [base, extension] = splitName(document.name);
  const [isOpen, setIsOpen] = useState(false);
  const [value, setValue] = useState(base);
  const [error, setError] = useState<string | undefined>();
  const [isBusy, setIsBusy] = useState(false);
  const id = `rename-${document.path}`;

  const handleOpenChange = (open: boolean) => {
    if (isBusy) return;
    setIsOpen(open);
    if (open) {
      setValue(base);
      setError(undefined);
    }
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const newName = `${value.trim()}${extension}`;
    if (newName === document.name) {
      setIsOpen(false);
      return;
    }
    const problem =
      nameProblem(newName) ??
      (takenNames.includes(newName)
        ? `A document named ${newName} is already in the library. Choose another name.`
        : null);
    if (problem) {
      setError(problem);
      return;
    }
    setIsBusy(true);
    try {
      await onRename(newName);
      setIsOpen(false);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Dialog.Root open={isOpen} onOpenChange={handleOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[80] bg-ink-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[90] w-[min(92vw,30rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-ink-900">
            Rename document
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm break-words text-ink-600">
            {document.name}
          </Dialog.Description>
          <form onSubmit={(event) => void handleSubmit(event)} noValidate className="mt-5">
            <label htmlFor={id} className="text-sm font-semibold text-ink-900">
              New name
            </label>
            <div className="mt-1.5 flex items-center gap-2">
              <Input
                {...fieldProps(id, { error })}
                value={value}
                autoComplete="off"
                spellCheck={false}
                maxLength={250}
                onChange={(event) => {
                  setValue(event.target.value);
                  setError(undefined);
                }}
              />
              {extension ? (
                <span
                  className="shrink-0 text-base text-ink-600"
                  aria-label={`ending ${extension}`}
                >
                  {extension}
                </span>
              ) : null}
            </div>
            {error ? (
              <p id={`${id}-error`} className="mt-1.5 text-sm font-medium text-danger-700">
                {error}
              </p>
            ) : null}
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={isBusy}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={isBusy} aria-busy={isBusy || undefined}>
                {isBusy ? 'Renaming…' : 'Rename'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
