import type { TestProject } from 'vitest/node';
import { preparePGliteTemplate } from './templates';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('testDatabase', { kind: 'pglite', templateDir: await preparePGliteTemplate() });
}
