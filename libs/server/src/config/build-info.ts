import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BuildInfo {
  readonly version: string;
  readonly sha: string;
}

/**
 * Written by `npm run build` (scripts/write-build-info.mjs) beside the compiled server. `nest
 * build` empties that folder first, so the file can never describe an older build than the code.
 */
export const BUILD_INFO_FILE = 'dist/apps/game-server/build-info.json';

/**
 * What this server was built from: BUILD_SHA when set (an override), else the file the build
 * stamped, else the tree it runs from (see `sourceBuildInfo`), for runs without a build step.
 */
export function readBuildInfo(root = packageRoot(__dirname), env = process.env): BuildInfo {
  return (env.BUILD_SHA ? undefined : stampedBuildInfo(root)) ?? sourceBuildInfo(root, env);
}

function stampedBuildInfo(root: string): BuildInfo | undefined {
  try {
    const stamped = JSON.parse(readFileSync(join(root, BUILD_INFO_FILE), 'utf8')) as Partial<BuildInfo>;
    if (typeof stamped.version === 'string' && typeof stamped.sha === 'string') return { version: stamped.version, sha: stamped.sha };
  } catch {
    // Not built by `npm run build` (jest, a bare `nest build`): the tree it runs from says.
  }
  return undefined;
}

/**
 * The nearest folder above `from` that holds a package.json: the checkout (or image) this code
 * runs from, wherever the process was started. A server started from another folder (the A/B's
 * other arm) would otherwise report that folder's build.
 */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/**
 * The version from package.json and the git sha of the tree at `root`, marked `-dirty` when that
 * tree has uncommitted changes; BUILD_SHA overrides (an image is built without .git).
 */
export function sourceBuildInfo(root = process.cwd(), env = process.env): BuildInfo {
  let version = '0.0.0';
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // Not fatal: a build without its package.json still runs.
  }
  if (env.BUILD_SHA) return { version, sha: env.BUILD_SHA };
  try {
    const git = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const sha = git(['rev-parse', '--short=12', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
    return { version, sha: dirty ? `${sha}-dirty` : sha };
  } catch {
    return { version, sha: 'unknown' };
  }
}
