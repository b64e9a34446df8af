import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BuildInfo {
  readonly version: string;
  readonly sha: string;
}

/**
 * The file that `npm run build` (scripts/write-build-info.mjs) writes beside the compiled server.
 * `nest build` empties that folder first, so the file can never describe an older build than the
 * code.
 */
export const BUILD_INFO_FILE = 'dist/apps/game-server/build-info.json';

/**
 * Says what this server was built from. BUILD_SHA wins when it is set, as an override. Otherwise
 * the file that the build stamped says. Failing that, for runs without a build step, the tree the
 * server runs from says (see `sourceBuildInfo`).
 */
export function readBuildInfo(root = packageRoot(__dirname), env = process.env): BuildInfo {
  return (env.BUILD_SHA ? undefined : stampedBuildInfo(root)) ?? sourceBuildInfo(root, env);
}

function stampedBuildInfo(root: string): BuildInfo | undefined {
  try {
    const stamped = JSON.parse(readFileSync(join(root, BUILD_INFO_FILE), 'utf8')) as Partial<BuildInfo>;
    if (typeof stamped.version === 'string' && typeof stamped.sha === 'string') return { version: stamped.version, sha: stamped.sha };
  } catch {
    // This code was not built by `npm run build` (it runs under jest, or from a bare `nest build`),
    // so the tree it runs from says what it is.
  }
  return undefined;
}

/**
 * Finds the nearest folder above `from` that holds a package.json. That is the checkout (or image)
 * this code runs from, wherever the process was started. Without this, a server started from
 * another folder (as the A/B's other arm is) would report that folder's build.
 */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/**
 * Reads the version from package.json and the git sha of the tree at `root`, marked `-dirty` when
 * that tree has uncommitted changes. BUILD_SHA overrides the sha, because an image is built
 * without .git.
 */
export function sourceBuildInfo(root = process.cwd(), env = process.env): BuildInfo {
  let version = '0.0.0';
  try {
    version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // This is not fatal: a build without its package.json still runs.
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
