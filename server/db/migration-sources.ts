import path from 'node:path';
import type { MigrationSource } from './migrate';

/** The platform's migrations (this folder's `migrations/`), then the product's (`supabase/migrations`). */
export function migrationSources(rootDir: string, supabaseDir: string): MigrationSource[] {
  return [
    { scope: 'platform', directory: path.join(rootDir, 'server', 'db', 'migrations') },
    { scope: 'product', directory: path.join(supabaseDir, 'migrations') },
  ];
}
