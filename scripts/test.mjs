// `npm test`: everything CI runs, in order, stopping at the first failure,
// with the time each step took.
import { spawnSync } from 'node:child_process';

const steps = [
  ['typecheck', ['npx', 'tsc', '-b']],
  ['lint', ['npx', 'eslint', '--max-warnings=0', '.']],
  ['format', ['npx', 'prettier', '--check', '.']],
  ['unit + integration (PGlite and PostgreSQL)', ['npx', 'vitest', 'run']],
  ['build', ['npm', 'run', '--silent', 'build']],
  ['e2e (Chromium)', ['npx', 'playwright', 'test']],
];

const timings = [];
const started = performance.now();
for (const [name, [command, ...args]] of steps) {
  console.log(`\n▶ ${name}: ${command} ${args.join(' ')}`);
  const stepStarted = performance.now();
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
  });
  const seconds = (performance.now() - stepStarted) / 1000;
  timings.push([name, seconds, result.status === 0]);
  if (result.status !== 0) {
    console.error(
      `\n✖ ${name} failed (exit ${result.status ?? result.signal}) after ${seconds.toFixed(1)} s`,
    );
    process.exit(result.status || 1);
  }
}
console.log('\nAll checks passed:');
for (const [name, seconds] of timings)
  console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name}`);
console.log(`  ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  total`);
