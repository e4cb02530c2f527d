import type { StorageService } from './service';

/**
 * Removes blobs no row points to: left by a crash between storing a blob and
 * committing its row, or between deleting a row and its blob. Only blobs
 * older than `graceMs` (at `now`) go, so an upload in flight is never touched,
 * and only blobs the store confirms it wrote itself (`ownKeys`), so objects of
 * other programs or other deployments in a shared S3 bucket never do.
 */
export async function sweepOrphanBlobs(
  service: Pick<StorageService, 'db' | 'store' | 'logger'>,
  options: { graceMs?: number; now?: number } = {},
): Promise<number> {
  const { graceMs = 60 * 60 * 1000, now = Date.now() } = options;
  const cutoff = now - graceMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const { rows } = await service.db.query<{ version: string }>(
      `select version from storage.objects where version = any($1::text[])`,
      [batch],
    );
    const referenced = new Set(rows.map((row) => row.version));
    const orphans = await service.store.ownKeys(batch.filter((key) => !referenced.has(key)));
    if (orphans.length > 0) await service.store.delete(orphans);
    removed += orphans.length;
    batch = [];
  };
  for await (const blob of service.store.list()) {
    if (blob.modifiedAt.getTime() > cutoff) continue;
    batch.push(blob.key);
    if (batch.length >= 500) await flush();
  }
  await flush();
  if (removed > 0) service.logger.info({ removed }, 'storage: removed blobs no object points to');
  return removed;
}
