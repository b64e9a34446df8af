import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isFreshBuild } from '../../../test/support/fresh-build';

/**
 * The checkout, and the bench as `nest build bench` makes it. The end-to-end tests run this, as a user
 * does.
 */
export const REPO = resolve(__dirname, '../../..');
const OUT = join(REPO, 'dist/apps/bench');
export const BENCH = join(OUT, 'apps/bench/src/main.js');
// `nest build` empties the output folder first, so two test files building at once would run each
// other's half-written bench. The one that holds this lock folder builds, and the others wait for it.
const LOCK = join(REPO, 'dist/.bench-build-lock');
const LOCK_STALE_MS = 5 * 60_000;

/** Builds the bench unless its build is there and newer than every source it was built from. */
export async function ensureBuiltBench(): Promise<void> {
  if (isFreshBuild(REPO, OUT, BENCH)) return;
  await holdingLock(() => {
    if (isFreshBuild(REPO, OUT, BENCH)) return;
    const built = spawnSync('npx', ['nest', 'build', 'bench'], { cwd: REPO, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`\`npx nest build bench\` failed (${built.status}):\n${built.stdout}${built.stderr}`);
  });
}

async function holdingLock(work: () => void): Promise<void> {
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock left by a test run that was killed mid-build is taken over once it is stale.
      const held = statSync(LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Runs the built bench with `args` from the checkout; resolves with its exit code and the end of its log. */
export function runBench(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BENCH, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr = (stderr + d.toString()).slice(-8000)));
    child.once('exit', (code) => resolvePromise({ code, stderr }));
  });
}
