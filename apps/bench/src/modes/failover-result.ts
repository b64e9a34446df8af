import type { ClusterMember, ResumingRoomReport } from '@app/bot-kit';
import type { BotSettings } from '../run';

// These types say what a failover run is set to do and what it found. The run (failover.ts) and its
// report (failover-report.ts) share them, so that neither imports the other.

export interface FailoverSettings {
  readonly instances: number;
  /** How many rooms play, one game each, all at once. They are opened `staggerMs` apart. */
  readonly games: number;
  readonly bots: BotSettings;
  /**
   * The time from the first room's opening to the kill. In a rolling restart it is the time to the
   * first restart, which also waits until every game has started.
   */
  readonly killAfterMs: number;
  /**
   * An instance's name (`instance-2`), or `busiest` for the instance holding the most of the run's
   * rooms. It is unused in a rolling restart.
   */
  readonly kill: string;
  /**
   * Instead of a kill, every instance is restarted in turn, `gapMs` apart: it gets SIGTERM, drains,
   * and starts again.
   */
  readonly rolling?: { readonly gapMs: number };
  readonly staggerMs: number;
  /** A seat that cannot get back in for this long gives up. */
  readonly resumeTimeoutMs: number;
  /** Extra environment for the cluster's instances (LEASE_SECONDS, INSTANCE_HEARTBEAT_SECONDS...). */
  readonly clusterEnv: Record<string, string>;
}

/** The cut-off: a moved room must be served again within this long of the failure. */
export const FAILOVER_GOAL_MS = 10_000;

/** Times from the kill (in a rolling restart, from the drain's start) to a moved room's return. */
export interface MovedRoom {
  readonly code: string;
  /** The time to the first socket of the room that another instance accepted, after the proxy dropped the dead one. */
  readonly proxyMovedMs?: number;
  /** The time to the first `room.state` on a socket of another instance. */
  readonly resumedMs?: number;
  /** The time to the first 2xx reply to the room's commands, served by another instance. */
  readonly firstOkMs?: number;
  /** The time to the first 2xx reply to a durable command (a committed write), served by another instance. */
  readonly firstCommitMs?: number;
  readonly servedBy?: string;
}

/** One instance's turn in a rolling restart: its drain, its return, and how long its rooms went unserved. */
export interface RestartRow {
  readonly instance: string;
  readonly oldPid: number;
  readonly newPid?: number;
  /** Epoch ms, taken right before the `restart` line went to the cluster script, which sends SIGTERM at once. */
  readonly drainAt: number;
  /**
   * The time from SIGTERM to the old process's exit (its drain), and to the new process's first 200
   * on /health. These are the cluster script's figures.
   */
  readonly stoppedMs?: number;
  readonly downMs?: number;
  /** The time from the drain's start to the proxy's first request to the new process. */
  readonly servingAgainMs?: number;
  /** The run's rooms that the instance held live at the drain's start. */
  readonly rooms: number;
  /**
   * Those rooms that were asked something after the drain began. Each had to be served again,
   * elsewhere or by the new process...
   */
  readonly moved: readonly MovedRoom[];
  /** ...and those that were not, because their game was over or their seats were gone. They needed no serving. */
  readonly endedMeanwhile: readonly string[];
  readonly servedAgain: number;
  /**
   * Of the rooms served again, how many another instance served, and how many the restarted
   * instance's new process served (because the proxy had not yet marked the instance down).
   */
  readonly servedElsewhere: number;
  readonly servedByNewProcess: number;
  readonly notServedAgain: readonly string[];
  /** The time from the drain's start to each moved room's first 2xx reply served elsewhere. */
  readonly minMs?: number;
  readonly p50Ms?: number;
  readonly maxMs?: number;
  readonly error?: string;
}

export interface InstanceRow {
  readonly instance: string;
  readonly killed: boolean;
  readonly restarted: boolean;
  /**
   * The run's rooms that the instance held live at the kill (in a rolling restart, at its own
   * restart), and those it served after (in a rolling restart, by its new process).
   */
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
  /** The instances as they are at the end, with a restarted instance's new pid. */
  readonly instances: readonly ClusterMember[];
  /** For a kill: the instance, and the epoch ms taken right before `process.kill`. */
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
    /** 503 (or 429) replies to commands. Each was retried under the same id. */
    readonly refused503: number;
    readonly commandsRefused503: number;
    readonly succeededAfter503: number;
    /** Commands sent again under their id after a send got no reply (the socket closed, or the send timed out). */
    readonly resent: number;
    readonly succeededAfterResend: number;
    /** Resent commands refused because the game had moved on (a question closed meanwhile). These are not losses. */
    readonly refusedMovedOn: number;
    /** Commands that never got a final reply, because their seat gave up. */
    readonly unresolved: number;
    /** HTTP calls through the proxy that got 502/503/504 or no answer at all. Each was retried. */
    readonly httpRefused: number;
  };
  /** The rooms that the kill moved. */
  readonly failover?: {
    readonly moved: readonly MovedRoom[];
    readonly servedAgain: number;
    readonly notServedAgain: readonly string[];
    readonly minMs?: number;
    readonly p50Ms?: number;
    readonly maxMs?: number;
    /** How the seats' reconnects after the kill failed, counted by way of failing (`upgrade 503`, `close 1012`...). */
    readonly failedReconnects: Readonly<Record<string, number>>;
  };
  /** For a rolling restart: each instance's turn, in order, and the moved rooms over all turns. */
  readonly rolling?: {
    readonly gapMs: number;
    readonly restarts: readonly RestartRow[];
    readonly moved: number;
    readonly servedAgain: number;
    /** The time from the drain's start to the first 2xx served elsewhere, for every moved room of every turn. */
    readonly minMs?: number;
    readonly p50Ms?: number;
    readonly maxMs?: number;
    /** How the seats' reconnects after the first drain failed, counted by way of failing. */
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
   * Whether the run passes: nothing acknowledged was lost, a room moved, and every moved room was
   * served again. A rolling restart also needs every instance restarted and every game that started
   * finished.
   */
  readonly passed: boolean;
  readonly failures: readonly string[];
}
