import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { showToast } from '@/components/ui/toaster';
import { useAuth } from '@/lib/auth/use-auth';
import { applyRpcError } from '@/lib/forms/rpc-error';
import { workspaceQuery, type Workspace } from '@/lib/workspace/workspace';
import { timeZoneNamesQuery, updateWorkspace } from '../api/workspace-details';

const detailsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the workspace a name.')
    .max(120, 'Keep the name under 121 characters.'),
  timeZone: z.string().min(1, 'Choose a time zone.'),
});
type DetailsValues = z.infer<typeof detailsSchema>;

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
  } catch {
    return null;
  }
}

/** The workspace's name and the time zone its agent's business hours are read in. */
export function WorkspaceDetails({ workspace }: { workspace: Workspace }) {
  const userId = useAuth().user?.id ?? '';
  const queryClient = useQueryClient();
  const zones = useQuery(timeZoneNamesQuery());
  const canEdit = workspace.role === 'owner' || workspace.role === 'admin';
  const form = useForm<DetailsValues>({
    resolver: zodResolver(detailsSchema),
    defaultValues: { name: workspace.name, timeZone: workspace.timeZone },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const chosenZone = useWatch({ control: form.control, name: 'timeZone' });
  const suggested = browserTimeZone();
  const knownZones = zones.data ?? [workspace.timeZone];
  const options = knownZones.includes(workspace.timeZone)
    ? knownZones
    : [workspace.timeZone, ...knownZones];

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await updateWorkspace(workspace.id, values);
      form.reset({ name: values.name.trim(), timeZone: values.timeZone });
      await queryClient.invalidateQueries({ queryKey: workspaceQuery(userId).queryKey });
      void showToast('success', 'Workspace saved.');
    } catch (error) {
      applyRpcError(form, error, { name: 'name', time_zone: 'timeZone' });
    }
  });

  if (!canEdit) {
    return (
      <Card id="workspace" title="Workspace" description="Only owners and admins can change these.">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm font-semibold text-ink-900">Workspace name</dt>
            <dd className="text-ink-700">{workspace.name}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-ink-900">Time zone</dt>
            <dd className="text-ink-700">{workspace.timeZone.replaceAll('_', ' ')}</dd>
          </div>
        </dl>
      </Card>
    );
  }

  return (
    <Card
      id="workspace"
      title="Workspace"
      description="Its name, as your team sees it, and the time zone your agent’s business hours are read in."
    >
      <form noValidate onSubmit={handleSubmit} className="grid max-w-xl gap-5">
        <Field id="workspace-name" label="Workspace name" error={errors.name?.message}>
          <Input
            {...fieldProps('workspace-name', { error: errors.name?.message })}
            {...form.register('name')}
            autoComplete="organization"
          />
        </Field>
        <Field
          id="workspace-time-zone"
          label="Time zone"
          error={errors.timeZone?.message}
          aside={
            suggested && suggested !== chosenZone && knownZones.includes(suggested) ? (
              <Button
                variant="ghost"
                className="h-auto px-0 py-0 text-sm"
                onClick={() =>
                  form.setValue('timeZone', suggested, { shouldDirty: true, shouldValidate: true })
                }
              >
                Use {suggested}
              </Button>
            ) : null
          }
        >
          <Select
            {...fieldProps('workspace-time-zone', { error: errors.timeZone?.message })}
            {...form.register('timeZone')}
            disabled={zones.isPending}
          >
            {options.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </Select>
        </Field>
        {zones.isError ? (
          <p className="text-sm text-danger-700">
            We could not load the list of time zones.{' '}
            <button type="button" className="underline" onClick={() => void zones.refetch()}>
              Try again
            </button>
          </p>
        ) : null}
        <FormError errors={errors} />
        <div>
          <SubmitButton
            isBusy={isSubmitting}
            label="Save workspace"
            busyLabel="Saving..."
            isFullWidth={false}
            isDisabled={!isDirty}
          />
        </div>
      </form>
    </Card>
  );
}
