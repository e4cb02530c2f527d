import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckboxChips } from '@/components/ui/checkbox-chips';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { showToast } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { applyRpcError, isRpcError } from '@/lib/forms/rpc-error';
import { agentKeys, saveAgentSettings, type Agent } from '../api/agent';
import {
  AFTER_HOURS,
  AFTER_HOURS_CHOICES,
  ESCALATION_TRIGGERS,
  ESCALATION_TRIGGER_LABELS,
  LANGUAGES,
  LANGUAGE_NAMES,
  SERVER_FIELDS,
  agentFormSchema,
  toFormValues,
  toStoredSettings,
  type AgentFormValues,
} from '../model/agent-settings';
import { BusinessHoursEditor } from './business-hours-editor';
import { VoicePicker } from './voice-picker';

/**
 * Every agent setting in one form, saved at once as the agent's next version.
 * Re-created (by its key) whenever a new version arrives, so it always starts
 * from what is stored. A save made from an older version is refused by the
 * database and explained here, with a way to load the newer settings.
 */
export function AgentForm({
  workspaceId,
  timeZone,
  agent,
  canEdit,
  onReload,
}: {
  workspaceId: string;
  timeZone: string;
  agent: Agent;
  canEdit: boolean;
  onReload: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const [isStale, setIsStale] = useState(false);
  const form = useForm<AgentFormValues>({
    resolver: zodResolver(agentFormSchema),
    defaultValues: toFormValues(agent.settings),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const afterHours = useWatch({ control: form.control, name: 'afterHours' });
  const isDisabled = !canEdit || isSubmitting;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await saveAgentSettings(agent.id, toStoredSettings(values), agent.version);
      const { version, changed, ...settings } = saved;
      const next: Agent = { ...agent, version, settings, updatedAt: new Date().toISOString() };
      queryClient.setQueryData(agentKeys.current(workspaceId), next);
      await queryClient.invalidateQueries({ queryKey: agentKeys.all(workspaceId) });
      void showToast(
        'success',
        changed ? `Agent settings saved as version ${version}.` : 'Nothing had changed.',
      );
    } catch (error) {
      if (isRpcError(error) && error.code === 'PT409') {
        setIsStale(true);
        return;
      }
      if (isRpcError(error) && error.code === '22023' && error.details === 'business_hours') {
        form.setError('root.businessHours', { type: 'server', message: error.message });
        return;
      }
      applyRpcError(form, error, SERVER_FIELDS);
    }
  });

  return (
    <Card
      id="agent-settings"
      title="How your agent answers"
      description="Changes apply to the next call once saved. Every saved version is kept below."
    >
      <form noValidate onSubmit={handleSubmit} className="grid gap-8">
        {!canEdit ? (
          <Alert tone="info">
            Only your workspace’s owners and admins can change the agent. You can see its settings
            and hear its voice.
          </Alert>
        ) : null}

        <div className="grid gap-5 lg:max-w-2xl">
          <Field
            id="agent-name"
            label="Agent name"
            error={errors.name?.message}
            hint="What the agent calls itself on the phone."
          >
            <Input
              {...fieldProps('agent-name', {
                error: errors.name?.message,
                hint: 'What the agent calls itself on the phone.',
              })}
              {...form.register('name')}
              disabled={isDisabled}
              maxLength={120}
              autoComplete="off"
            />
          </Field>
          <Field
            id="agent-greeting"
            label="Greeting"
            error={errors.greeting?.message}
            hint="The first thing callers hear. 10 to 500 characters."
          >
            <Textarea
              {...fieldProps('agent-greeting', {
                error: errors.greeting?.message,
                hint: 'The first thing callers hear. 10 to 500 characters.',
              })}
              {...form.register('greeting')}
              disabled={isDisabled}
              rows={3}
            />
          </Field>
        </div>

        <Controller
          control={form.control}
          name="voice"
          render={({ field, fieldState }) => (
            <VoicePicker
              value={field.value}
              onChange={field.onChange}
              isDisabled={isDisabled}
              error={fieldState.error?.message}
            />
          )}
        />

        <Controller
          control={form.control}
          name="languages"
          render={({ field, fieldState }) => (
            <div>
              <CheckboxChips
                legend="Languages the agent speaks"
                values={LANGUAGES}
                labels={LANGUAGE_NAMES}
                selected={field.value}
                onToggle={(language) => {
                  if (isDisabled) return;
                  field.onChange(
                    field.value.includes(language)
                      ? field.value.filter((chosen) => chosen !== language)
                      : [...field.value, language],
                  );
                }}
              />
              <p className="mt-1.5 text-sm text-ink-600">
                Up to five. The agent answers in the caller’s language when it is one of these.
              </p>
              {fieldState.error?.message ? (
                <p className="mt-1 text-sm font-medium text-danger-700">
                  {fieldState.error.message}
                </p>
              ) : null}
            </div>
          )}
        />

        <BusinessHoursEditor
          form={form}
          timeZone={timeZone}
          isDisabled={isDisabled}
          error={errors.root?.businessHours?.message}
        />
        {canEdit ? (
          <p className="-mt-6 text-sm text-ink-600">
            Wrong time zone? Change it in{' '}
            <Link to={paths.team} className="font-medium text-azure-700 underline">
              Team and workspace
            </Link>
            .
          </p>
        ) : null}

        <fieldset className="grid gap-3">
          <legend className="text-sm font-semibold text-ink-900">Outside business hours</legend>
          {AFTER_HOURS.map((choice) => (
            <label
              key={choice}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-sand-200 bg-white p-3 has-[:checked]:border-azure-700 has-[:checked]:bg-azure-50"
            >
              <input
                type="radio"
                value={choice}
                disabled={isDisabled}
                {...form.register('afterHours')}
                className="mt-1 size-4 accent-azure-700"
              />
              <span>
                <span className="block font-semibold text-ink-900">
                  {AFTER_HOURS_CHOICES[choice].label}
                </span>
                <span className="block text-sm text-ink-600">
                  {AFTER_HOURS_CHOICES[choice].description}
                </span>
              </span>
            </label>
          ))}
          {afterHours === 'forward' ? (
            <Field
              id="agent-forward-to"
              label="Forward to"
              error={errors.afterHoursForwardTo?.message}
              className="lg:max-w-sm"
            >
              <Input
                {...fieldProps('agent-forward-to', { error: errors.afterHoursForwardTo?.message })}
                {...form.register('afterHoursForwardTo')}
                disabled={isDisabled}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                placeholder="+1 415 555 0100"
              />
            </Field>
          ) : null}
        </fieldset>

        <fieldset className="grid gap-4">
          <legend className="text-sm font-semibold text-ink-900">Hand-offs to your team</legend>
          <p className="-mt-2 text-sm text-ink-600">
            The agent hands the call to a person, with a summary, when:
          </p>
          <div className="grid gap-2">
            {ESCALATION_TRIGGERS.map((trigger) => (
              <label key={trigger} className="flex items-center gap-3 text-sm text-ink-900">
                <input
                  type="checkbox"
                  value={trigger}
                  disabled={isDisabled}
                  {...form.register('escalationTriggers')}
                  className="size-4 accent-azure-700"
                />
                {ESCALATION_TRIGGER_LABELS[trigger]}
              </label>
            ))}
          </div>
          <div className="grid gap-4 sm:grid-cols-2 lg:max-w-2xl">
            <Field
              id="agent-escalation-email"
              label="Hand-off email"
              error={errors.escalationEmail?.message}
            >
              <Input
                {...fieldProps('agent-escalation-email', {
                  error: errors.escalationEmail?.message,
                })}
                {...form.register('escalationEmail')}
                disabled={isDisabled}
                type="email"
                autoComplete="off"
                placeholder="csm-team@company.com"
              />
            </Field>
            <Field
              id="agent-escalation-phone"
              label="Hand-off number (live transfer)"
              error={errors.escalationPhone?.message}
            >
              <Input
                {...fieldProps('agent-escalation-phone', {
                  error: errors.escalationPhone?.message,
                })}
                {...form.register('escalationPhone')}
                disabled={isDisabled}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                placeholder="+1 415 555 0100"
              />
            </Field>
          </div>
        </fieldset>

        {isStale ? (
          <Alert tone="error" title="Someone else changed the agent since you opened this page.">
            <p>
              Your changes were not saved. Load the latest settings, then make your changes again.
            </p>
            <Button
              variant="secondary"
              className="mt-2"
              onClick={() => {
                setIsStale(false);
                void onReload();
              }}
            >
              Load the latest settings
            </Button>
          </Alert>
        ) : null}
        <FormError errors={errors} />
        {canEdit ? (
          <div className="flex flex-wrap items-center gap-4">
            <SubmitButton
              isBusy={isSubmitting}
              label="Save agent settings"
              busyLabel="Saving..."
              isFullWidth={false}
            />
            {isDirty ? (
              <>
                <p className="text-sm text-ink-600">You have unsaved changes.</p>
                <Button variant="ghost" onClick={() => form.reset()} disabled={isSubmitting}>
                  Discard changes
                </Button>
              </>
            ) : null}
          </div>
        ) : null}
      </form>
    </Card>
  );
}
