import { QueryError } from '@/components/data/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useAvailabilityRules, useSchedulerSettings } from '../api/availability';
import { toRanges } from '../model/availability';
import { AvailabilityRulesEditor } from './availability-rules-editor';
import { BlackoutDates } from './blackout-dates';
import { SchedulerSettingsForm } from './scheduler-settings-form';

/** The demo scheduler's weekly hours, days off and settings; /demo reads them at once. */
export function AvailabilityPage() {
  const settings = useSchedulerSettings();
  const rules = useAvailabilityRules();

  if (settings.isError || rules.isError) {
    return (
      <QueryError
        what="the availability"
        onRetry={() => void Promise.all([settings.refetch(), rules.refetch()])}
        isRetrying={settings.isFetching || rules.isFetching}
      />
    );
  }
  if (!settings.data || !rules.data) {
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading the availability…</span>
        <Skeleton className="h-80 w-full rounded-2xl" />
        <Skeleton className="h-40 w-full rounded-2xl" />
      </div>
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
      <AvailabilityRulesEditor
        key={rules.dataUpdatedAt}
        initial={toRanges(rules.data)}
        timeZone={settings.data.time_zone}
      />
      <div className="grid gap-6">
        <BlackoutDates timeZone={settings.data.time_zone} />
        <SchedulerSettingsForm
          key={settings.data.updated_at}
          settings={settings.data}
          onReload={() => settings.refetch()}
        />
      </div>
    </div>
  );
}
