import { useQuery } from '@tanstack/react-query';
import { Check } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { decideAuthorization, loadAuthorization } from '../api/authorization';
import { describeScopes, returnHost } from '@/lib/auth/oauth-scopes';

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="px-4 pt-24 pb-16 sm:pt-32">
      <div className="mx-auto w-full max-w-md rounded-2xl border border-sand-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-ink-900 sm:text-3xl">{title}</h1>
        <div className="mt-4">{children}</div>
      </div>
    </main>
  );
}

/** Why a request cannot be shown, in words: the ids and codes are the app's business. */
function requestProblem(error: unknown): string {
  const { status, code } = error as { status?: number; code?: string };
  if (status === 404 || code === 'oauth_authorization_not_found') {
    return 'This request has expired or was already answered. Go back to the app and start again.';
  }
  return describeAuthError(error).message;
}

/**
 * /oauth/consent?authorization_id=…: a third-party app asks to use the signed-in
 * person's account. They see who asks, for what, and where they will be sent
 * back, and allow or deny; either way the app gets its answer by redirect.
 */
export function ConsentPage({ authorizationId }: { authorizationId: string | null }) {
  const request = useQuery({
    queryKey: ['oauth', 'authorization', authorizationId],
    queryFn: () => loadAuthorization(authorizationId ?? ''),
    enabled: Boolean(authorizationId),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [pending, setPending] = useState<'allow' | 'deny' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const alreadyAllowed = request.data?.kind === 'redirect' ? request.data.url : null;
  useEffect(() => {
    if (alreadyAllowed) window.location.assign(alreadyAllowed);
  }, [alreadyAllowed]);

  if (!authorizationId) {
    return (
      <Frame title="This link is incomplete">
        <p className="text-ink-700">
          It does not say which request to answer. Go back to the app and start again.
        </p>
      </Frame>
    );
  }
  if (request.error) {
    return (
      <Frame title="We cannot show this request">
        <Alert tone="error">{requestProblem(request.error)}</Alert>
      </Frame>
    );
  }
  if (!request.data || request.data.kind === 'redirect') {
    return (
      <Frame title="Allow access">
        <p role="status" className="text-ink-600">
          {alreadyAllowed ? 'You allowed this app before. Returning to it...' : 'Loading...'}
        </p>
      </Frame>
    );
  }

  const { details } = request.data;
  const host = returnHost(details.redirect_uri);
  // Dynamic registration allows a client without a name: say so rather than "undefined".
  const appName =
    details.client.name?.trim() || (host ? `An unnamed app at ${host}` : 'An unnamed app');
  const decide = async (decision: 'allow' | 'deny') => {
    setProblem(null);
    setPending(decision);
    try {
      window.location.assign(await decideAuthorization(details.authorization_id, decision));
    } catch (error) {
      setProblem(requestProblem(error));
      setPending(null);
    }
  };

  return (
    <Frame title={`Allow ${appName} to use your account?`}>
      <p className="text-ink-700">
        Signed in as
        <span className="block font-semibold break-all text-ink-900">{details.user.email}</span>
      </p>
      <p className="mt-4 font-semibold text-ink-900">{appName} will be able to:</p>
      <ul className="mt-2 grid gap-2">
        {describeScopes(details.scope).map((sentence) => (
          <li key={sentence} className="flex items-start gap-2 text-ink-700">
            <Check aria-hidden="true" className="mt-1 size-4 shrink-0 text-mint-600" />
            {sentence}
          </li>
        ))}
        <li className="flex items-start gap-2 text-ink-700">
          <Check aria-hidden="true" className="mt-1 size-4 shrink-0 text-mint-600" />
          Read and change your workspace&apos;s data as you, until you remove its access in your
          account settings
        </li>
      </ul>
      {host ? (
        <p className="mt-4 text-sm text-ink-600">
          Either way you will return to <span className="font-semibold break-all">{host}</span>.
        </p>
      ) : null}
      <div aria-live="polite">
        {problem ? (
          <Alert tone="error" className="mt-4">
            {problem}
          </Alert>
        ) : null}
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
        <Button
          onClick={() => void decide('allow')}
          disabled={pending !== null}
          aria-busy={pending === 'allow' || undefined}
        >
          {pending === 'allow' ? 'Allowing...' : 'Allow'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void decide('deny')}
          disabled={pending !== null}
          aria-busy={pending === 'deny' || undefined}
        >
          {pending === 'deny' ? 'Denying...' : 'Deny'}
        </Button>
      </div>
    </Frame>
  );
}
