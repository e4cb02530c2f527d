import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Phone } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { formatPhoneNumber } from '@/lib/phone-number';
import type { Workspace } from '@/lib/workspace/workspace';
import {
  addPhoneNumber,
  agentChoicesQuery,
  phoneNumberKeys,
  phoneNumbersQuery,
  removePhoneNumber,
  updatePhoneNumber,
  type AgentChoice,
  type PhoneNumber,
} from '../api/phone-numbers';
import { NumberForm } from './number-form';

const addedOn = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The numbers the agent answers: list, add, change, remove. */
export function PhoneNumbers({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const numbers = useQuery(phoneNumbersQuery(workspace.id));
  const agents = useQuery(agentChoicesQuery(workspace.id));
  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: phoneNumberKeys.all(workspace.id) });

  if (numbers.isPending || agents.isPending) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading your phone numbers…</span>
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (numbers.isError || agents.isError) {
    return (
      <QueryError
        what="your phone numbers"
        onRetry={() => {
          void numbers.refetch();
          void agents.refetch();
        }}
        isRetrying={numbers.isFetching || agents.isFetching}
      />
    );
  }

  const agentName = (id: string | null) =>
    agents.data.find((agent) => agent.id === id)?.name ?? 'No agent';

  return (
    <div className="grid gap-8">
      <Card
        id="numbers"
        title={`Your numbers (${numbers.data.length})`}
        description={
          <p>
            Calls to or from these numbers are linked to them and answered by their agent. Calls
            arrive through your{' '}
            <Link to={paths.connectPhone} className="font-medium text-azure-700 underline">
              phone system connection
            </Link>
            .
          </p>
        }
      >
        {numbers.data.length === 0 ? (
          <div className="flex items-center gap-3 rounded-xl border border-dashed border-sand-200 p-6 text-ink-700">
            <Phone aria-hidden="true" className="size-5 text-ink-600" />
            <p>No numbers yet. {canEdit ? 'Add the first one below.' : ''}</p>
          </div>
        ) : (
          <ul className="grid gap-3">
            {numbers.data.map((number) => (
              <NumberRow
                key={number.id}
                number={number}
                agents={agents.data}
                agentName={agentName(number.agent_id)}
                canEdit={canEdit}
                onChanged={refresh}
              />
            ))}
          </ul>
        )}
      </Card>
      {canEdit ? (
        <Card
          id="add-number"
          title="Add a number"
          description="A number your phone system forwards to Cervana. Each number can belong to one workspace only."
        >
          <NumberForm
            idPrefix="new-number"
            agents={agents.data}
            initial={{ e164: '', label: '', agentId: agents.data[0]?.id ?? '' }}
            submitLabel="Add number"
            busyLabel="Adding..."
            onSubmit={async (input) => {
              await addPhoneNumber(workspace.id, input);
              await refresh();
              void showToast('success', `${formatPhoneNumber(input.e164)} added.`);
            }}
          />
        </Card>
      ) : (
        <Alert tone="info">
          Only your workspace’s owners and admins can add, change or remove numbers.
        </Alert>
      )}
    </div>
  );
}

function NumberRow({
  number,
  agents,
  agentName,
  canEdit,
  onChanged,
}: {
  number: PhoneNumber;
  agents: AgentChoice[];
  agentName: string;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const [isEditing, setIsEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const formatted = formatPhoneNumber(number.e164);

  if (isEditing) {
    return (
      <li className="rounded-xl border border-azure-700 bg-white p-4">
        <p className="mb-3 font-semibold text-ink-900">Change {formatted}</p>
        <NumberForm
          idPrefix={`number-${number.id}`}
          agents={agents}
          initial={{ e164: number.e164, label: number.label ?? '', agentId: number.agent_id ?? '' }}
          submitLabel="Save number"
          busyLabel="Saving..."
          onCancel={() => setIsEditing(false)}
          onSubmit={async (input) => {
            await updatePhoneNumber(number.id, input);
            await onChanged();
            setIsEditing(false);
            void showToast('success', `${formatPhoneNumber(input.e164)} saved.`);
          }}
        />
      </li>
    );
  }

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-sand-200 bg-white px-4 py-3">
      <div className="min-w-0">
        <p className="font-semibold whitespace-nowrap text-ink-900">{formatted}</p>
        <p className="text-sm text-ink-700">
          {number.label ?? 'No label'} · answered by {agentName}
        </p>
        <p className="text-sm text-ink-600">Added {addedOn.format(new Date(number.created_at))}</p>
        {error ? (
          <p role="alert" className="mt-1 text-sm font-medium text-danger-700">
            {error}
          </p>
        ) : null}
      </div>
      {canEdit ? (
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => setIsEditing(true)}>
            Change<span className="sr-only"> {formatted}</span>
          </Button>
          <ConfirmDialog
            trigger={
              <Button variant="ghost">
                Remove<span className="sr-only"> {formatted}</span>
              </Button>
            }
            title={`Remove ${formatted}?`}
            description={
              <p>
                The agent stops answering this number in Cervana. Calls already taken on it stay in
                your call history. You can add the number again later.
              </p>
            }
            confirmLabel="Remove number"
            busyLabel="Removing..."
            onConfirm={async () => {
              setError(null);
              try {
                await removePhoneNumber(number.id);
                await onChanged();
                void showToast('success', `${formatted} removed.`);
              } catch (cause) {
                setError(rpcErrorMessage(cause));
                throw cause;
              }
            }}
          />
        </div>
      ) : null}
    </li>
  );
}
