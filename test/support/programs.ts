import { spawn } from 'node:child_process';

export interface ProgramRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ProgramOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** The user to run as: the `postgres` user, for a program whose files must belong to PostgreSQL. */
  readonly user?: { readonly uid: number; readonly gid: number };
  /** The program is killed after this many ms, so a program that hangs fails its test instead of holding it up. */
  readonly timeoutMs?: number;
}

/** Runs a program to its end and resolves with its exit code and everything it wrote. */
export function runProgram(file: string, args: readonly string[], options: ProgramOptions = {}): Promise<ProgramRun> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...options.user, cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
