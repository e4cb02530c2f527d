import { z } from 'zod';
import { E164, normalizePhoneNumber, PHONE_NUMBER_HINT } from '@/lib/phone-number';
import { VOICE_IDS } from './voices';

/**
 * The agent's settings as the page edits them, checked in the browser with
 * the rules `private.clean_agent_settings` applies again in SQL
 * (supabase/migrations/20261127000100_agent_settings.sql), which has the last
 * word and names the field it refuses.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export const LANGUAGES = [
  'en-US',
  'en-GB',
  'es-ES',
  'es-MX',
  'fr-FR',
  'de-DE',
  'it-IT',
  'pt-BR',
  'nl-NL',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English (US)',
  'en-GB': 'English (UK)',
  'es-ES': 'Spanish (Spain)',
  'es-MX': 'Spanish (Mexico)',
  'fr-FR': 'French',
  'de-DE': 'German',
  'it-IT': 'Italian',
  'pt-BR': 'Portuguese (Brazil)',
  'nl-NL': 'Dutch',
};

export const AFTER_HOURS = ['take_message', 'answer', 'forward'] as const;
export type AfterHours = (typeof AFTER_HOURS)[number];
export const AFTER_HOURS_CHOICES: Record<AfterHours, { label: string; description: string }> = {
  take_message: {
    label: 'Take a message',
    description:
      'The agent says you are closed, takes the caller’s name, number and reason, and emails it to your hand-off address.',
  },
  answer: {
    label: 'Answer as usual',
    description:
      'The agent answers and resolves what it can; hand-offs wait for your next opening time.',
  },
  forward: {
    label: 'Forward the call',
    description: 'Calls outside your hours go straight to another number, such as an on-call line.',
  },
};

export const ESCALATION_TRIGGERS = [
  'caller_asks',
  'negative_sentiment',
  'cancellation',
  'billing_dispute',
  'unresolved',
] as const;
export type EscalationTrigger = (typeof ESCALATION_TRIGGERS)[number];
export const ESCALATION_TRIGGER_LABELS: Record<EscalationTrigger, string> = {
  caller_asks: 'The caller asks for a person',
  negative_sentiment: 'The caller is upset',
  cancellation: 'The caller mentions cancelling or not renewing',
  billing_dispute: 'A billing dispute or refund request',
  unresolved: 'The agent cannot resolve the issue',
};

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
/** A time input cannot show 24:00: the form closes at 00:00 for midnight, stored as 24:00. */
const MIDNIGHT = '00:00';

const dayHoursSchema = z
  .object({ isOpen: z.boolean(), open: z.string(), close: z.string() })
  .superRefine((day, context) => {
    if (!day.isOpen) return;
    if (!TIME.test(day.open)) {
      context.addIssue({ code: 'custom', path: ['open'], message: 'Enter an opening time.' });
    }
    if (!TIME.test(day.close)) {
      context.addIssue({ code: 'custom', path: ['close'], message: 'Enter a closing time.' });
    } else if (TIME.test(day.open) && day.close !== MIDNIGHT && day.close <= day.open) {
      context.addIssue({
        code: 'custom',
        path: ['close'],
        message: 'The closing time must be after the opening time.',
      });
    }
  });
export type DayHours = z.infer<typeof dayHoursSchema>;

export const agentFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Give your agent a name.')
      .max(80, 'Keep the name under 81 characters.'),
    greeting: z
      .string()
      .trim()
      .min(10, 'Write a greeting of at least 10 characters.')
      .max(500, 'Keep the greeting under 501 characters.'),
    voice: z.enum(VOICE_IDS, { message: 'Choose a voice.' }),
    languages: z
      .array(z.enum(LANGUAGES))
      .min(1, 'Choose at least one language.')
      .max(5, 'Choose at most 5 languages.'),
    businessHours: z.object({
      mon: dayHoursSchema,
      tue: dayHoursSchema,
      wed: dayHoursSchema,
      thu: dayHoursSchema,
      fri: dayHoursSchema,
      sat: dayHoursSchema,
      sun: dayHoursSchema,
    }),
    afterHours: z.enum(AFTER_HOURS),
    afterHoursForwardTo: z.string(),
    escalationTriggers: z.array(z.enum(ESCALATION_TRIGGERS)),
    escalationEmail: z
      .string()
      .trim()
      .max(254, 'Keep the email under 255 characters.')
      .refine((value) => value === '' || z.email().safeParse(value).success, {
        message: 'Enter a valid email address, like csm-team@company.com.',
      }),
    escalationPhone: z.string(),
  })
  .superRefine((values, context) => {
    const forwardTo = normalizePhoneNumber(values.afterHoursForwardTo);
    if (values.afterHours === 'forward' && forwardTo === '') {
      context.addIssue({
        code: 'custom',
        path: ['afterHoursForwardTo'],
        message: 'Enter the number to forward after-hours calls to.',
      });
    } else if (values.afterHours === 'forward' && !E164.test(forwardTo)) {
      context.addIssue({
        code: 'custom',
        path: ['afterHoursForwardTo'],
        message: PHONE_NUMBER_HINT,
      });
    }
    const phone = normalizePhoneNumber(values.escalationPhone);
    if (phone !== '' && !E164.test(phone)) {
      context.addIssue({ code: 'custom', path: ['escalationPhone'], message: PHONE_NUMBER_HINT });
    }
    if (values.escalationTriggers.length > 0 && values.escalationEmail.trim() === '' && !phone) {
      context.addIssue({
        code: 'custom',
        path: ['escalationEmail'],
        message: 'Enter an email or a phone number for hand-offs, or turn off every hand-off rule.',
      });
    }
  });
export type AgentFormValues = z.infer<typeof agentFormSchema>;

/** The settings as stored (and as each version keeps them). */
export const storedSettingsSchema = z.object({
  name: z.string(),
  greeting: z.string(),
  voice: z.enum(VOICE_IDS),
  languages: z.array(z.enum(LANGUAGES)),
  business_hours: z.record(
    z.string(),
    z.object({ open: z.string(), close: z.string() }).nullable(),
  ),
  after_hours: z.enum(AFTER_HOURS),
  after_hours_forward_to: z.string().nullable(),
  escalation_triggers: z.array(z.enum(ESCALATION_TRIGGERS)),
  escalation_email: z.string().nullable(),
  escalation_phone: z.string().nullable(),
});
export type StoredSettings = z.infer<typeof storedSettingsSchema>;

/** The form's values for stored settings. A closed day keeps 09:00–17:00 ready to reopen. */
export function toFormValues(settings: StoredSettings): AgentFormValues {
  const businessHours = Object.fromEntries(
    WEEKDAYS.map((day) => {
      const hours = settings.business_hours[day];
      return [
        day,
        hours
          ? {
              isOpen: true,
              open: hours.open,
              close: hours.close === '24:00' ? MIDNIGHT : hours.close,
            }
          : { isOpen: false, open: '09:00', close: '17:00' },
      ];
    }),
  ) as Record<Weekday, DayHours>;
  return {
    name: settings.name,
    greeting: settings.greeting,
    voice: settings.voice,
    languages: settings.languages,
    businessHours,
    afterHours: settings.after_hours,
    afterHoursForwardTo: settings.after_hours_forward_to ?? '',
    escalationTriggers: settings.escalation_triggers,
    escalationEmail: settings.escalation_email ?? '',
    escalationPhone: settings.escalation_phone ?? '',
  };
}

/** What save_agent_settings takes: the stored shape. */
export function toStoredSettings(values: AgentFormValues): StoredSettings {
  return {
    name: values.name.trim(),
    greeting: values.greeting.trim(),
    voice: values.voice,
    languages: LANGUAGES.filter((language) => values.languages.includes(language)),
    business_hours: Object.fromEntries(
      WEEKDAYS.map((day) => {
        const hours = values.businessHours[day];
        const close = hours.close === MIDNIGHT ? '24:00' : hours.close;
        return [day, hours.isOpen ? { open: hours.open, close } : null];
      }),
    ),
    after_hours: values.afterHours,
    after_hours_forward_to:
      values.afterHours === 'forward' ? normalizePhoneNumber(values.afterHoursForwardTo) : null,
    escalation_triggers: ESCALATION_TRIGGERS.filter((trigger) =>
      values.escalationTriggers.includes(trigger),
    ),
    escalation_email: values.escalationEmail.trim().toLowerCase() || null,
    escalation_phone: normalizePhoneNumber(values.escalationPhone) || null,
  };
}

/** The form's field for each field save_agent_settings may name. */
export const SERVER_FIELDS: Record<string, keyof AgentFormValues> = {
  name: 'name',
  greeting: 'greeting',
  voice: 'voice',
  languages: 'languages',
  business_hours: 'businessHours',
  after_hours: 'afterHours',
  after_hours_forward_to: 'afterHoursForwardTo',
  escalation_triggers: 'escalationTriggers',
  escalation_email: 'escalationEmail',
  escalation_phone: 'escalationPhone',
};

const FIELD_LABELS: Record<keyof StoredSettings, string> = {
  name: 'name',
  greeting: 'greeting',
  voice: 'voice',
  languages: 'languages',
  business_hours: 'business hours',
  after_hours: 'after-hours behaviour',
  after_hours_forward_to: 'after-hours number',
  escalation_triggers: 'hand-off rules',
  escalation_email: 'hand-off email',
  escalation_phone: 'hand-off number',
};

/** In words, what a version changed from the one before it: 'greeting and business hours'. */
export function describeChanges(before: StoredSettings, after: StoredSettings): string {
  const changed = (Object.keys(FIELD_LABELS) as (keyof StoredSettings)[]).filter(
    (key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null),
  );
  const labels = changed.map((key) => FIELD_LABELS[key]);
  if (labels.length === 0) return 'no visible change';
  if (labels.length === 1) return labels[0]!;
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`;
}

/**
 * Whether the agent is within business hours at `now`, read in the
 * workspace's time zone, and the next change ('Opens Monday at 09:00').
 */
export function openingStatus(
  hours: StoredSettings['business_hours'],
  timeZone: string,
  now: Date = new Date(),
): { isOpen: boolean; next: string | null } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const today = part('weekday').toLowerCase().slice(0, 3) as Weekday;
  const time = `${part('hour')}:${part('minute')}`;
  const todayIndex = WEEKDAYS.indexOf(today);
  const hoursToday = hours[today];
  if (hoursToday && time >= hoursToday.open && time < hoursToday.close) {
    return {
      isOpen: true,
      next: hoursToday.close === '24:00' ? 'Open until midnight' : `Closes at ${hoursToday.close}`,
    };
  }
  if (hoursToday && time < hoursToday.open) {
    return { isOpen: false, next: `Opens today at ${hoursToday.open}` };
  }
  for (let offset = 1; offset <= 7; offset += 1) {
    const day = WEEKDAYS[(todayIndex + offset) % 7]!;
    const next = hours[day];
    if (next) {
      const when = offset === 1 ? 'tomorrow' : WEEKDAY_NAMES[day];
      return { isOpen: false, next: `Opens ${when} at ${next.open}` };
    }
  }
  return { isOpen: false, next: null };
}
