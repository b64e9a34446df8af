import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Whether a `nest build` output folder holds `entry` and is newer than every source it was built
 * from. The build mirrors the repository (dist/apps/x/libs/bot-kit/src/y.js is built from
 * libs/bot-kit/src/y.ts), so each output names its source. A new source file shows up as an edit to
 * a file that imports it.
 */
export function isFreshBuild(repo: string, out: string, entry: string): boolean {
  if (!existsSync(entry)) return false;
  for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    const js = join(out, file);
    const ts = join(repo, relative(out, js)).replace(/\.js$/, '.ts');
    if (!existsSync(ts) || statSync(ts).mtimeMs > statSync(js).mtimeMs) return false;
  }
  return true;
}
