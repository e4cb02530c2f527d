import type { Queryable } from './database';

/**
 * The SQL functions behind the public forms build links and address the sales
 * inbox from public.site_settings; the server's configuration (SITE_URL,
 * SALES_INBOX) is the source of truth, written there at every start.
 */
export async function syncSiteSettings(
  db: Queryable,
  settings: { siteUrl: string; salesInbox: string },
): Promise<void> {
  await db.query(
    `update public.site_settings set site_url = $1, sales_inbox = $2
     where id and (site_url, sales_inbox) is distinct from ($1, $2)`,
    [settings.siteUrl.replace(/\/+$/, ''), settings.salesInbox],
  );
}
