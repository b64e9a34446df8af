import type { ClusterMember, ResumingRoomReport } from '@app/bot-kit';
import type { BotSettings } from '../run';

// What a failover run is set to do and what it found: shared by the run (failover.ts) and its report
// (failover-report.ts), so that neither imports the other.

export interface FailoverSettings {
  readonly instances: number;
  /** Rooms, one game each, all playing at once (opened `staggerMs` apart). */
  readonly games: number;
  readonly bots: BotSettings;
  /** From the first room's opening to the kill (rolling: to the first restart, once every game has started). */
  readonly killAfterMs: number;
  /** An instance's name (`instance-2`), or `busiest`: the one holding the most of the run's rooms. Unused when rolling. */
  readonly kill: string;
  /** Instead of a kill: every instance restarted in turn (SIGTERM, it drains, it starts again), `gapMs` apart. */
  readonly rolling?: { readonly gapMs: number };
  readonly staggerMs: number;
  /** A seat that cannot get back in for this long gives up. */
  readonly resumeTimeoutMs: number;
  /** Extra environment for the cluster's instances (LEASE_SECONDS, INSTANCE_HEARTBEAT_SECONDS...). */
  readonly clusterEnv: Record<string, string>;
}

/** The cut-off of the issue: a moved room is served again within this long of the failure. */
export const FAILOVER_GOAL_MS = 10_000;

/** Times from the kill (rolling: from the drain's start) to a moved room's return. */
export interface MovedRoom {
  readonly code: string;
  /** To the first socket of the room another instance accepted (the proxy had dropped the dead one). */
  readonly proxyMovedMs?: number;
  /** To the first `room.state` on a socket of another instance. */
  readonly resumedMs?: number;
  /** To the first 2xx reply of the room's commands, served by another instance. */
  readonly firstOkMs?: number;
  /** To the first 2xx durable command (a committed write) served by another instance. */
  readonly firstCommitMs?: number;
  readonly servedBy?: string;
}

/** One instance's turn in a rolling restart: its drain, its return, and its rooms' time unserved. */
export interface RestartRow {
  readonly instance: string;
  readonly oldPid: number;
  readonly newPid?: number;
  /** Epoch ms, taken right before the `restart` line went to the cluster script (it sends SIGTERM at once). */
  readonly drainAt: number;
  /** SIGTERM to the old process's exit (its drain), and to the new process's first 200 on /health (the script's figures). */
  readonly stoppedMs?: number;
  readonly downMs?: number;
  /** The drain's start to the proxy's first request to the new process. */
  readonly servingAgainMs?: number;
  /** The run's rooms it held live at the drain's start. */
  readonly rooms: number;
  /** Those that were asked something after the drain began (each had to be served again, elsewhere or by the new process)... */
  readonly moved: readonly MovedRoom[];
  /** ...and those that were not (their game over, their seats gone): nothing to serve. */
  readonly endedMeanwhile: readonly string[];
  readonly servedAgain: number;
  /** Of those served again: by another instance, or by the restarted instance's new process (the proxy had not yet marked it down). */
  readonly servedElsewhere: number;
  readonly servedByNewProcess: number;
  readonly notServedAgain: readonly string[];
  /** Drain start to each moved room's first 2xx reply served elsewhere. */
  readonly minMs?: number;
  readonly p50Ms?: number;
  readonly maxMs?: number;
  readonly error?: string;
}

export interface InstanceRow {
  readonly instance: string;
  readonly killed: boolean;
  readonly restarted: boolean;
  /** The run's rooms it held live at the kill (rolling: at its own restart), and those it served after (rolling: its new process). */
  readonly roomsAtKill: number;
  readonly roomsAfter: number;
  readonly answersBefore: number;
  readonly answersAfter: number;
  readonly p50Before?: number;
  readonly p99Before?: number;
  readonly p50After?: number;
  readonly p99After?: number;
}

export interface LostCommand {
  readonly room: string;
  readonly seat: string;
  readonly type: string;
  readonly id: string;
}

export interface FailoverResult {
  /** What was done to the cluster mid-run: one instance killed with SIGKILL, or every instance restarted in turn. */
  readonly disruption: 'kill' | 'rolling';
  readonly proxy: string;
  /** As they are at the end (a restarted instance with its new pid). */
  readonly instances: readonly ClusterMember[];
  /** The kill's: the instance, and the epoch ms taken right before `process.kill`. */
  readonly victim?: string;
  readonly killedAt?: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly rooms: readonly (ResumingRoomReport & { readonly movedFrom?: string })[];
  readonly accounting: {
    readonly acknowledged: number;
    readonly found: number;
    readonly lost: number;
    readonly byType: Readonly<Record<string, { acknowledged: number; found: number }>>;
    readonly lostCommands: readonly LostCommand[];
  };
  readonly retries: {
    /** 503 (or 429) replies to commands, each retried under the same id. */
    readonly refused503: number;
    readonly commandsRefused503: number;
    readonly succeededAfter503: number;
    /** Commands sent again under their id after a send got no reply (socket closed, timed out). */
    readonly resent: number;
    readonly succeededAfterResend: number;
    /** Resent commands refused because the game had moved on (a question closed meanwhile): not losses. */
    readonly refusedMovedOn: number;
    /** Commands that never got a final reply (their seat gave up). */
    readonly unresolved: number;
    /** HTTP calls answered 502/503/504 or not at all through the proxy (each retried). */
    readonly httpRefused: number;
  };
  /** The kill's moved rooms. */
  readonly failover?: {
    readonly moved: readonly MovedRoom[];
    readonly servedAgain: number;
    readonly notServedAgain: readonly string[];
    readonly minMs?: number;
    readonly p50Ms?: number;
    readonly maxMs?: number;
    /** How the seats' failed reconnects after the kill failed, summed (`upgrade 503`, `close 1012`...). */
    readonly failedReconnects: Readonly<Record<string, number>>;
  };
  /** The rolling restart's: each instance's turn, in order, and its moved rooms over all turns. */
  readonly rolling?: {
    readonly gapMs: number;
    readonly restarts: readonly RestartRow[];
    readonly moved: number;
    readonly servedAgain: number;
    /** Drain start to first 2xx served elsewhere, every moved room of every turn. */
    readonly minMs?: number;
    readonly p50Ms?: number;
    readonly maxMs?: number;
    /** How the seats' failed reconnects after the first drain failed, summed. */
    readonly failedReconnects: Readonly<Record<string, number>>;
  };
  readonly games: {
    readonly rooms: number;
    readonly started: number;
    readonly finished: number;
    readonly failed: number;
    readonly errors: readonly string[];
  };
  readonly perInstance: readonly InstanceRow[];
  /**
   * Whether the run passes: nothing acknowledged lost, a room moved, every moved room served
   * again; rolling, also every instance restarted and every game that started finished.
   */
  readonly passed: boolean;
  readonly failures: readonly string[];
}
