/**
 * What the process entry (`main.ts`) needs once the database is open: loaded while it opens
 * (decision 030), so that its modules (the HTTP server, auth, storage, realtime…) are no
 * longer on a restart's critical path.
 */
export { formatDemoAccounts, seedDemoAccounts } from './auth/demo-accounts';
export { migrate } from './db/migrate';
export { seedSampleData } from './db/seed';
export { syncSiteSettings } from './db/site-settings';
export { loadKeys } from './keys/load-keys';
export { describeInstance, removeInstanceFile, writeInstanceFile } from './running-instance';
export { loadStaticSite, startServer } from './server';
export { REPEAT_WINDOW_MS, onStopSignals } from './stop-signals';
