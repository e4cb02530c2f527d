import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { signedInAs } from '@/lib/auth/signed-in-as';
import { getQueryClient } from '@/lib/query-client';
import { getSupabase } from '@/lib/supabase';
import {
  emailPreviewSchema,
  listedEmailSchema,
  parseEmailFilters,
  type EmailFilters,
  type EmailPreview,
  type ListedEmail,
} from '../model/email-log';

export const EMAILS_PAGE_SIZE = 50;

type Cursor = { createdAt: string; id: string } | null;

export const emailLogKeys = {
  all: ['admin', 'emails'] as const,
  list: (filters: EmailFilters) => ['admin', 'emails', 'list', filters] as const,
  templates: ['admin', 'emails', 'templates'] as const,
  detail: (messageId: string) => ['admin', 'emails', 'detail', messageId] as const,
};

/**
 * The outbox, newest first, through admin_list_emails (the table is closed to
 * the API): a page at a time by key, after the last row's (created_at, id).
 * Links and codes arrive already hidden.
 */
export const emailLogQuery = (filters: EmailFilters) =>
  infiniteQueryOptions({
    queryKey: emailLogKeys.list(filters),
    initialPageParam: null as Cursor,
    queryFn: async ({ pageParam }): Promise<{ emails: ListedEmail[]; next: Cursor }> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_list_emails', {
        p_status: filters.status ?? undefined,
        p_channel: filters.channel ?? undefined,
        p_template: filters.template ?? undefined,
        p_recipient: filters.recipient || undefined,
        p_after_created_at: pageParam?.createdAt,
        p_after_id: pageParam?.id,
        p_limit: EMAILS_PAGE_SIZE + 1,
      });
      if (error) throw error;
      const rows = z.array(listedEmailSchema).parse(data);
      const emails = rows.slice(0, EMAILS_PAGE_SIZE);
      const last = emails.at(-1);
      return {
        emails,
        next:
          rows.length > EMAILS_PAGE_SIZE && last
            ? { createdAt: last.created_at, id: last.id }
            : null,
      };
    },
    getNextPageParam: (page) => page.next,
  });

/** The kinds of message in the outbox, for the filter. */
export const emailTemplatesQuery = () =>
  queryOptions({
    queryKey: emailLogKeys.templates,
    queryFn: async (): Promise<string[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_email_templates');
      if (error) throw error;
      return z.array(z.string()).parse(data);
    },
    staleTime: 5 * 60_000,
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One message for its preview, or null when there is none with this id. */
export const emailPreviewQuery = (messageId: string) =>
  queryOptions({
    queryKey: emailLogKeys.detail(messageId),
    queryFn: async (): Promise<EmailPreview | null> => {
      if (!UUID.test(messageId)) return null;
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_get_email', { p_message_id: messageId });
      if (error?.code === 'PT404') return null;
      if (error) throw error;
      return emailPreviewSchema.parse(data);
    },
  });

/** Queues a copy of the message to its recipient; the new message's id. */
export async function resendEmail(messageId: string): Promise<string> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('resend_outbox_message', {
    p_message_id: messageId,
  });
  if (error) throw error;
  return z.object({ id: z.string() }).parse(data).id;
}

/** Makes a pending or failed message due now. */
export async function retryEmail(messageId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('retry_outbox_message', { p_message_id: messageId });
  if (error) throw error;
}

/** Messages that failed for good in the last 7 days, for the overview. */
export const failedEmailCountQuery = () =>
  queryOptions({
    queryKey: ['admin', 'emails', 'failed-count'] as const,
    queryFn: async (): Promise<number> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('admin_failed_email_count');
      if (error) throw error;
      return z.number().int().parse(data);
    },
  });

/**
 * Starts /admin/emails' first reads (the first page of the filters in the URL,
 * and the templates to filter by) while the page's code loads, under the keys
 * the log uses (decision 034). Only for an admin; nothing here throws.
 */
export async function prefetchEmailsView(search: string): Promise<void> {
  try {
    if (!(await signedInAs('admin'))) return;
    const client = getQueryClient();
    await Promise.allSettled([
      client.prefetchInfiniteQuery(emailLogQuery(parseEmailFilters(new URLSearchParams(search)))),
      client.prefetchQuery(emailTemplatesQuery()),
    ]);
  } catch {
    // The page's own queries report it.
  }
}
