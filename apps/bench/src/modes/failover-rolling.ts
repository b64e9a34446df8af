import { ClusterScript, epochMs, sleep } from '@app/bot-kit';

/** One instance's restart as the bench saw it, in epoch ms. */
export interface InstanceRestart {
  readonly instance: string;
  readonly oldPid: number;
  /**
   * Taken right before the `restart` line was written. The script sends SIGTERM at once, and the
   * instance drains.
   */
  readonly drainAt: number;
  /** The run's rooms that the instance held live just before, as its admin API, asked directly, said. */
  readonly rooms: readonly string[];
  readonly newPid?: number;
  /**
   * `drainAt` plus the script's SIGTERM-to-exit time. The old process is gone by then (its sockets
   * closed before that), so from here on whatever is served under this instance's name comes from the
   * new process.
   */
  readonly stoppedAt?: number;
  /** When the script's {"restarted"} line arrived, which means the new process answers /health. */
  readonly backAt?: number;
  /** The script's figure for the time from SIGTERM to the new process's first 200 on /health. */
  readonly downMs?: number;
  /** When the proxy sent the new process a request, after marking it up again. */
  readonly servingAt?: number;
  readonly error?: string;
}

/**
 * Restarts every instance in turn through the cluster script's stdin. Each instance is restarted
 * only once the one before is back and the proxy sends it traffic again, and then `gapMs` later.
 * `isRunRoom` keeps only the run's rooms in what each instance holds. The loop stops at the first
 * restart that fails, because the cluster is then one instance short, and the next restart would
 * prove nothing.
 */
export async function rollThrough(
  cluster: ClusterScript,
  o: { gapMs: number; isRunRoom: (code: string) => boolean; signal?: AbortSignal; log: (msg: string) => void },
): Promise<InstanceRestart[]> {
  const done: InstanceRestart[] = [];
  const order = cluster.instances.map((i) => i.instance);
  for (const [n, name] of order.entries()) {
    if (o.signal?.aborted) break;
    if (n > 0 && o.gapMs > 0) await sleep(o.gapMs, o.signal);
    const held = (await cluster.roomsByInstance()).get(name) ?? new Set<string>();
    const rooms = [...held].filter(o.isRunRoom).sort();
    const oldPid = cluster.member(name).pid;
    o.log(`restarting ${name} (pid ${oldPid}), which holds ${rooms.length} of the run's rooms`);
    const drainAt = epochMs();
    const failed = (err: unknown) => {
      const error = err instanceof Error ? err.message.split('\n')[0] : String(err);
      o.log(`restarting ${name} failed: ${error}`);
      return error;
    };
    let back;
    try {
      back = await cluster.restart(name);
    } catch (err) {
      done.push({ instance: name, oldPid, drainAt, rooms, error: failed(err) });
      break;
    }
    const backAt = epochMs();
    const restarted = {
      instance: name,
      oldPid,
      drainAt,
      rooms,
      newPid: back.pid,
      stoppedAt: drainAt + back.stoppedMs,
      backAt,
      downMs: back.downMs,
    };
    o.log(`${name} is back as pid ${back.pid}, ${back.downMs} ms after SIGTERM; waiting for the proxy to send it traffic`);
    try {
      done.push({ ...restarted, servingAt: await cluster.servedThroughProxy(name, o.signal) });
    } catch (err) {
      done.push({ ...restarted, error: failed(err) });
      break;
    }
  }
  return done;
}
