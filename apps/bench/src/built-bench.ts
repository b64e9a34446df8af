import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The checkout, and the bench as `nest build bench` makes it: what the end-to-end tests run, as a user does. */
export const REPO = resolve(__dirname, '../../..');
export const BENCH = join(REPO, 'dist/apps/bench/apps/bench/src/main.js');

/** Runs the built bench with `args` from the checkout; resolves with its exit code and the end of its log. */
export function runBench(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BENCH, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr = (stderr + d.toString()).slice(-8000)));
    child.once('exit', (code) => resolvePromise({ code, stderr }));
  });
}
