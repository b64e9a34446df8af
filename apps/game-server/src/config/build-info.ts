import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BuildInfo {
  readonly version: string;
  readonly sha: string;
}

/**
 * The version from package.json and the git sha of the tree it runs from, marked `-dirty` when
 * that tree has uncommitted changes. BUILD_SHA overrides (images built without .git).
 */
export function readBuildInfo(root = process.cwd(), env = process.env): BuildInfo {
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
