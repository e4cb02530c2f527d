import type { TestProject } from 'vitest/node';
import { findPostgresBinaries, startPostgresCluster } from './postgres-cluster';
import { POSTGRES_TEMPLATE, preparePostgresTemplate } from './templates';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binaries = findPostgresBinaries();
  if (!binaries)
    throw new Error(
      'PostgreSQL binaries not found (vitest.config.ts should have skipped this project)',
    );
  const cluster = await startPostgresCluster(binaries);
  try {
    await preparePostgresTemplate(cluster.url, cluster.urlFor(POSTGRES_TEMPLATE));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide('testDatabase', {
    kind: 'postgres',
    adminUrl: cluster.url,
    templateName: POSTGRES_TEMPLATE,
    urlFor: cluster.urlFor('{database}'),
  });
  return () => cluster.stop();
}
