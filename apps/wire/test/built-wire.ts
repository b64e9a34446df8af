import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { isFreshBuild } from '../../../test/support/fresh-build';

const REPO = resolve(__dirname, '../../..');
const OUT = join(REPO, 'dist/apps/wire');
/** The file that `nest build wire` produces and `npm run wire` runs. */
export const BUILT_WIRE = join(OUT, 'apps/wire/src/main.js');

/** Builds the wire CLI unless its build is there and newer than every source it was built from. */
export function ensureBuiltWire(): void {
  if (isFreshBuild(REPO, OUT, BUILT_WIRE)) return;
  const built = spawnSync('npx', ['nest', 'build', 'wire'], { cwd: REPO, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`\`npx nest build wire\` failed (${built.status}):\n${built.stdout}${built.stderr}`);
}
