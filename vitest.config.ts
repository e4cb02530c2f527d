import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { findPostgresBinaries } from './server/testing/postgres-cluster.ts';

/**
 * Four projects: the web app (jsdom), server unit tests, and the server
 * integration tests (`*.int.test.ts`) twice: on PGlite and on a real PostgreSQL
 * that the harness starts itself. Without PostgreSQL binaries that half is
 * skipped, and says so.
 */
const hasPostgres = findPostgresBinaries() !== undefined;
if (!hasPostgres) {
  console.warn(
    '\n[tests] PostgreSQL binaries (initdb, pg_ctl) not found: SKIPPING the PostgreSQL half of the integration tests.\n' +
      '        Install them (apt-get install postgresql) or set PG_BIN to run it.\n',
  );
}

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };
const integration = ['server/**/*.int.test.ts'];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: integration,
          environment: 'node',
        },
      },
      {
        test: {
          name: 'pglite',
          include: integration,
          environment: 'node',
          globalSetup: ['server/testing/global-setup-pglite.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(hasPostgres
        ? [
            {
              test: {
                name: 'postgres',
                include: integration,
                environment: 'node' as const,
                globalSetup: ['server/testing/global-setup-postgres.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
