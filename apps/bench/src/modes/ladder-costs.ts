import { MetricsSnapshot } from '@app/bot-kit';
import { residentBytes, UsageReading } from '../host-usage';
import { MetricsDelta } from '../stats';

/**
 * What a rung costs the server per unit of load: CPU, system calls and bytes per answer, and memory
 * per socket. Each figure is undefined when its reading is missing, so that a report can tell "not
 * measured" from a measured zero.
 */

/** The server's resident memory at one moment, and where it was read. */
export interface RssReading {
  readonly bytes: number;
  /** `proc` means VmRSS of /proc/PID/status, and `metrics` means the server's own `process_resident_memory_bytes`. */
  readonly source: 'proc' | 'metrics';
}

export const RESIDENT_MEMORY = 'process_resident_memory_bytes';

/**
 * Reads the server's RSS. It comes from /proc, read at this moment, when the server is a process on
 * this machine. Otherwise it comes from a /metrics snapshot taken at the same point (for a server
 * the bench did not start).
 */
export function serverRss(pid: number | undefined, snapshot: MetricsSnapshot | undefined): RssReading | undefined {
  const local = pid === undefined ? undefined : residentBytes(pid);
  if (local !== undefined) return { bytes: local, source: 'proc' };
  if (snapshot?.has(RESIDENT_MEMORY)) return { bytes: snapshot.value(RESIDENT_MEMORY), source: 'metrics' };
  return undefined;
}

/**
 * Computes (RSS at the rung - idle RSS) / sockets, in KB of 1,024 bytes. That is what one more open
 * socket (and its share of its room) holds.
 */
export function rssPerSocketKb(
  idle: RssReading | undefined,
  atRung: RssReading | undefined,
  sockets: number | undefined,
): number | undefined {
  if (!idle || !atRung || !sockets || sockets <= 0) return undefined;
  return (atRung.bytes - idle.bytes) / sockets / 1024;
}

/**
 * Computes CPU time (from /proc, over the rung's window) per answer the server handled in the same
 * window. That is the cost per answer of the goal, for one process group.
 */
export function cpuMsPerAnswer(usage: UsageReading | undefined, who: string, answers: number | undefined): number | undefined {
  const percent = usage?.cpuPercent[who];
  if (percent === undefined || !answers) return undefined;
  return ((percent / 100) * usage!.wallSeconds * 1000) / answers;
}

/** The write and read system calls of one process group over the window, per answer handled in it. */
export function syscallsPerAnswer(
  usage: UsageReading | undefined,
  who: string,
  answers: number | undefined,
): { writes: number; reads: number } | undefined {
  const calls = usage?.syscalls[who];
  if (!calls || !answers) return undefined;
  return { writes: calls.writes / answers, reads: calls.reads / answers };
}

/**
 * Formats "writes / reads" per answer. Where /proc could not be read, it says "not available" rather
 * than 0, because nothing was measured.
 */
export function fmtSyscallsPerAnswer(usage: UsageReading | undefined, who: string, answers: number | undefined): string {
  if (!usage?.syscalls[who]) return 'not available';
  const per = syscallsPerAnswer(usage, who, answers);
  return per ? `${per.writes.toFixed(2)} / ${per.reads.toFixed(2)}` : '-';
}

/**
 * Everything the server wrote to game sockets over the window (`game_ws_outbound_bytes_total`, all
 * kinds), per answer handled.
 */
export function bytesPerAnswer(delta: MetricsDelta | undefined, answers: number | undefined): number | undefined {
  if (!delta || !answers) return undefined;
  return delta.value('game_ws_outbound_bytes_total') / answers;
}
