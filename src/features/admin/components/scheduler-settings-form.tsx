import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { showToast } from '@/components/ui/toaster';
import { isRpcError, rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  availabilityKeys,
  updateSchedulerSettings,
  useTimeZoneNames,
  type SchedulerSettings,
} from '../api/availability';
import { SETTINGS_FIELDS, type SchedulerChanges, type SettingsField } from '../model/availability';

const NUMBER_FIELDS: {
  field: Exclude<SettingsField, 'time_zone' | 'meeting_url'>;
  label: string;
  hint: string;
}[] = [
  { field: 'slot_minutes', label: 'Length (minutes)', hint: 'Each demo; 10 to 240.' },
  { field: 'buffer_minutes', label: 'Gap (minutes)', hint: 'Between two demos; 0 to 120.' },
  {
    field: 'min_notice_minutes',
    label: 'Notice (minutes)',
    hint: 'Shortest time from booking to demo; 240 is 4 hours.',
  },
  {
    field: 'horizon_days',
    label: 'Horizon (days)',
    hint: 'How far ahead visitors can book; 1 to 365.',
  },
];

type Values = Record<SettingsField, string>;

function toValues(settings: SchedulerSettings): Values {
  return {
    time_zone: settings.time_zone,
    slot_minutes: String(settings.slot_minutes),
    buffer_minutes: String(settings.buffer_minutes),
    min_notice_minutes: String(settings.min_notice_minutes),
    horizon_days: String(settings.horizon_days),
    meeting_url: settings.meeting_url ?? '',
  };
}

/**
 * The scheduler's time zone, slot length, gap, notice, horizon and meeting
 * link, saved from the version the form opened; SQL checks each and names it.
 */
export function SchedulerSettingsForm({
  settings,
  onReload,
}: {
  settings: SchedulerSettings;
  onReload: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const zones = useTimeZoneNames();
  const [values, setValues] = useState(() => toValues(settings));
  const [errors, setErrors] = useState<Partial<Record<SettingsField | 'form', string>>>({});
  const [isStale, setIsStale] = useState(false);
  const [isSaving, setIsSaving] = useState(false);

  const changes = (): SchedulerChanges => {
    const original = toValues(settings);
    const result: SchedulerChanges = {};
    if (values.time_zone !== original.time_zone) result.time_zone = values.time_zone;
    for (const { field } of NUMBER_FIELDS) {
      if (values[field] !== original[field]) {
        // Sent as typed when it is not a whole number, so SQL names the field.
        const number = Number(values[field]);
        (result as Record<string, unknown>)[field] =
          values[field].trim() !== '' && Number.isInteger(number) ? number : values[field];
      }
    }
    if (values.meeting_url.trim() !== original.meeting_url) {
      result.meeting_url = values.meeting_url.trim() || null;
    }
    return result;
  };

  const handleSubmit = async () => {
    setErrors({});
    const changed = changes();
    if (Object.keys(changed).length === 0) {
      void showToast('message', 'Nothing had changed.');
      return;
    }
    setIsSaving(true);
    try {
      await updateSchedulerSettings(changed, settings.updated_at);
      await queryClient.invalidateQueries({ queryKey: availabilityKeys.all });
      void showToast('success', 'Scheduler settings saved. /demo uses them now.');
    } catch (error) {
      if (isRpcError(error) && error.code === 'PT409') {
        setIsStale(true);
      } else {
        const details = isRpcError(error) ? error.details : null;
        const field = SETTINGS_FIELDS.find((known) => known === details);
        setErrors(field ? { [field]: rpcErrorMessage(error) } : { form: rpcErrorMessage(error) });
      }
    } finally {
      setIsSaving(false);
    }
  };

  const set = (field: SettingsField, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  return (
    <form
      noValidate
      aria-labelledby="scheduler-settings-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void handleSubmit();
      }}
      className="grid gap-5 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="scheduler-settings-heading" className="text-lg font-semibold text-ink-900">
        Scheduler settings
      </h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          id="settings-time-zone"
          label="Time zone"
          error={errors.time_zone}
          className="sm:col-span-2"
        >
          <Select
            {...fieldProps('settings-time-zone', { error: errors.time_zone })}
            value={values.time_zone}
            onChange={(event) => set('time_zone', event.target.value)}
          >
            {(zones.data ?? [values.time_zone]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </Select>
        </Field>
        {NUMBER_FIELDS.map(({ field, label, hint }) => {
          const id = `settings-${field.replace(/_/g, '-')}`;
          return (
            <Field key={field} id={id} label={label} hint={hint} error={errors[field]}>
              <Input
                {...fieldProps(id, { error: errors[field], hint })}
                inputMode="numeric"
                value={values[field]}
                onChange={(event) => set(field, event.target.value)}
              />
            </Field>
          );
        })}
        <Field
          id="settings-meeting-url"
          label="Meeting link (optional)"
          hint="Put in every invite, e.g. https://meet.example.com/cervana."
          error={errors.meeting_url}
          className="sm:col-span-2"
        >
          <Input
            {...fieldProps('settings-meeting-url', {
              error: errors.meeting_url,
              hint: 'Put in every invite, e.g. https://meet.example.com/cervana.',
            })}
            type="url"
            value={values.meeting_url}
            onChange={(event) => set('meeting_url', event.target.value)}
          />
        </Field>
      </div>
      {isStale ? (
        <Alert tone="error" title="Someone else changed the settings since you opened them.">
          <p>Your change was not saved. Load the latest, then make your change again.</p>
          <Button
            variant="secondary"
            className="mt-2"
            onClick={() => {
              setIsStale(false);
              void onReload();
            }}
          >
            Load the latest
          </Button>
        </Alert>
      ) : null}
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      <div>
        <Button type="submit" disabled={isSaving} aria-busy={isSaving || undefined}>
          {isSaving ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </form>
  );
}
