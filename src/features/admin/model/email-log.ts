import { z } from 'zod';

/** The outbox's delivery states, as the log names them. */
export const EMAIL_STATES = {
  pending: 'Waiting',
  sent: 'Sent',
  logged: 'Logged',
  failed: 'Failed',
} as const;
export type EmailState = keyof typeof EMAIL_STATES;

export const EMAIL_STATE_HINTS: Record<EmailState, string> = {
  pending: 'Queued; the server delivers it at the next attempt.',
  sent: 'Handed to the mail server.',
  logged: 'Written to the server log: no SMTP server or text provider is configured.',
  failed: 'Delivery gave up after its attempts.',
};

export const EMAIL_CHANNELS = { email: 'Email', sms: 'Text message' } as const;
export type EmailChannel = keyof typeof EMAIL_CHANNELS;

/** How people call the kinds of message; an unknown kind shows as its code. */
const TEMPLATE_LABELS: Record<string, string> = {
  'auth.confirm_signup': 'Sign-up confirmation',
  'auth.invite': 'Account invitation',
  'auth.magic_link': 'Sign-in link',
  'auth.recovery': 'Password reset',
  'auth.email_change_new': 'Email change (new address)',
  'auth.email_change_current': 'Email change (current address)',
  'auth.reauthentication': 'Confirmation code',
  'auth.sms_otp': 'Sign-in code (text)',
  'auth.sms_confirmation': 'Phone confirmation (text)',
  'auth.sms_phone_change': 'Phone change (text)',
  'auth.sms_mfa': 'Second-factor code (text)',
  sales_inquiry_confirmation: 'Sales inquiry: confirmation',
  sales_inquiry_notification: 'Sales inquiry: to the sales inbox',
  demo_booking_booked: 'Demo booked',
  demo_booking_rescheduled: 'Demo rescheduled',
  demo_booking_cancelled: 'Demo cancelled',
  demo_booking_booked_notification: 'Demo booked: to the sales inbox',
  demo_booking_rescheduled_notification: 'Demo rescheduled: to the sales inbox',
  demo_booking_cancelled_notification: 'Demo cancelled: to the sales inbox',
  partner_application_confirm: 'Partner application: confirm address',
  partner_application_received: 'Partner application: received',
  partner_application_already_received: 'Partner application: already received',
  partner_application_existing_partner: 'Partner application: already a partner',
  partner_application_notification: 'Partner application: to the sales inbox',
  'team.invitation': 'Team invitation',
};

export function templateLabel(template: string): string {
  return TEMPLATE_LABELS[template] ?? template;
}

export const listedEmailSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string().nullable(),
  template: z.string(),
  status: z.enum(['pending', 'sent', 'logged', 'failed']),
  attempts: z.number(),
  next_attempt_at: z.string(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  is_secret: z.boolean(),
  resent_from: z.string().nullable(),
});
export type ListedEmail = z.infer<typeof listedEmailSchema>;

export const emailPreviewSchema = listedEmailSchema.omit({ resent_from: true }).extend({
  body_text: z.string(),
  body_html: z.string().nullable(),
  layout: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.unknown()),
  attachments: z.array(
    z.object({
      filename: z.string(),
      content_type: z.string(),
      size: z.number(),
      text: z.string().nullable(),
    }),
  ),
  resends: z.array(
    z.object({
      id: z.string(),
      created_at: z.string(),
      status: z.enum(['pending', 'sent', 'logged', 'failed']),
      resent_by_email: z.string().nullable(),
    }),
  ),
});
export type EmailPreview = z.infer<typeof emailPreviewSchema>;

export interface EmailFilters {
  status: EmailState | null;
  channel: EmailChannel | null;
  template: string | null;
  /** Part of an address or phone number. */
  recipient: string;
}

/** The filters in the URL; anything unknown is ignored. */
export function parseEmailFilters(params: URLSearchParams): EmailFilters {
  const status = params.get('state');
  const channel = params.get('channel');
  const template = (params.get('kind') ?? '').trim().slice(0, 100);
  return {
    status: status && status in EMAIL_STATES ? (status as EmailState) : null,
    channel: channel && channel in EMAIL_CHANNELS ? (channel as EmailChannel) : null,
    template: template || null,
    recipient: (params.get('to') ?? '').trim().slice(0, 320),
  };
}

/** A size as people read it: 812 bytes, 4.2 KB, 1.3 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function formatEmailTime(iso: string): string {
  return when.format(new Date(iso));
}
