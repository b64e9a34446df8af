import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');
const OUT = join(REPO, 'dist/apps/wire');
/** What `nest build wire` produces, and `npm run wire` runs. */
export const BUILT_WIRE = join(OUT, 'apps/wire/src/main.js');

/** Builds the wire CLI unless its build is there and newer than every source it was built from. */
export function ensureBuiltWire(): void {
  if (isFresh()) return;
  const built = spawnSync('npx', ['nest', 'build', 'wire'], { cwd: REPO, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`\`npx nest build wire\` failed (${built.status}):\n${built.stdout}${built.stderr}`);
}

// The build mirrors the repository (dist/apps/wire/libs/protocol/src/x.js is libs/protocol/src/x.ts),
// so each output names its source; a new source file shows up as an edit to one that imports it.
function isFresh(): boolean {
  if (!existsSync(BUILT_WIRE)) return false;
  for (const file of readdirSync(OUT, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    const js = join(OUT, file);
    const ts = join(REPO, relative(OUT, js)).replace(/\.js$/, '.ts');
    if (!existsSync(ts) || statSync(ts).mtimeMs > statSync(js).mtimeMs) return false;
  }
  return true;
}
