import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { confirmApplication, type ConfirmationResult } from '../api/applications';

type State =
  | { kind: 'busy' }
  | { kind: 'done'; result: ConfirmationResult }
  | { kind: 'failed'; message: string };

/**
 * What the link in the confirmation email opens (`/partner?confirm=<token>`):
 * the application is confirmed once, and the page says so, or says plainly why
 * the link did not work (used, expired, replaced by a newer application).
 */
export function ApplicationConfirmation({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: 'busy' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let isCurrent = true;
    confirmApplication(token).then(
      (result) => isCurrent && setState({ kind: 'done', result }),
      (error: unknown) =>
        isCurrent && setState({ kind: 'failed', message: rpcErrorMessage(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);
  useEffect(() => {
    if (state.kind !== 'busy') heading.current?.focus();
  }, [state.kind]);

  const isConfirmed = state.kind === 'done' && state.result.status === 'confirmed';
  return (
    <section aria-labelledby="confirmation-heading" className="grid gap-4">
      <h2
        id="confirmation-heading"
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold text-ink-900 outline-none sm:text-3xl"
      >
        {state.kind === 'busy'
          ? 'Confirming your application'
          : isConfirmed
            ? 'Application confirmed'
            : state.kind === 'done' && state.result.status === 'used'
              ? 'Application already confirmed'
              : 'We could not confirm this application'}
      </h2>
      {state.kind === 'busy' ? (
        <p role="status" className="text-ink-600">
          Confirming your application...
        </p>
      ) : state.kind === 'failed' ? (
        <Alert tone="error">{state.message}</Alert>
      ) : isConfirmed ? (
        <Alert tone="success">
          {state.result.message}
          {state.result.reference ? ` Your reference: ${state.result.reference}.` : ''}
        </Alert>
      ) : (
        <Alert tone={state.result.status === 'used' ? 'info' : 'error'}>
          {state.result.message}
        </Alert>
      )}
      {state.kind === 'done' && !isConfirmed && state.result.status !== 'used' ? (
        <p className="text-ink-700">
          <a href="#apply" className="font-semibold text-azure-700 underline">
            Apply again
          </a>{' '}
          and follow the link in the new email.
        </p>
      ) : null}
    </section>
  );
}
