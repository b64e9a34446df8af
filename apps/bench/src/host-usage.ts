import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Measures where the machine's CPU went during a run (the bench, the server, PostgreSQL and the
 * proxy share it), and how late the bench's own event loop ran. Both are confounds of client
 * timings.
 */
let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

interface Stat {
  readonly ppid: number;
  /** utime + stime of the process itself, and of its reaped children. */
  readonly own: number;
  readonly reaped: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** The parent of `pid` when it runs on this machine. A PostgreSQL backend's parent is its postmaster. */
export function parentPid(pid: number): number | undefined {
  return readStat(pid)?.ppid;
}

/** The live children of `pid` (a postmaster's backends and workers). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    if (readStat(Number(name))?.ppid === pid) children.push(Number(name));
  }
  return children;
}

/** CPU seconds of `pid`, plus those of its live and reaped children when asked (PostgreSQL's backends). */
export function cpuSeconds(pid: number, withChildren = false): number | undefined {
  const stat = readStat(pid);
  if (!stat) return undefined;
  let total = stat.own + (withChildren ? stat.reaped : 0);
  if (withChildren) for (const child of childrenOf(pid)) total += readStat(child)?.own ?? 0;
  return total / clockTicks();
}

/** The system calls a process made that read or write, including every socket read and writev. */
export interface IoCalls {
  readonly reads: number;
  readonly writes: number;
}

/** Reads `syscr` and `syscw` from a /proc/PID/io text. It returns undefined when either is missing. */
export function parseIoCalls(text: string): IoCalls | undefined {
  const field = (name: string) => {
    const m = new RegExp(`^${name}:\\s*(\\d+)\\s*$`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const reads = field('syscr');
  const writes = field('syscw');
  return reads === undefined || writes === undefined ? undefined : { reads, writes };
}

function readIoCalls(pid: number): IoCalls | undefined {
  try {
    return parseIoCalls(readFileSync(`/proc/${pid}/io`, 'utf8'));
  } catch {
    // The process is gone, or not ours to read (/proc/PID/io needs the right to trace the process).
    return undefined;
  }
}

/**
 * Counts the read and write system calls of `pid`, plus those of its live children when asked.
 * Unlike CPU time, a reaped child's calls are already in its parent's /proc/PID/io (the kernel adds
 * them on wait), so a backend that exits mid-window moves from one term of the sum to the other. It
 * returns undefined when any of the processes cannot be read, because a partial sum would pass for
 * a small one.
 */
export function ioCalls(pid: number, withChildren = false): IoCalls | undefined {
  const own = readIoCalls(pid);
  if (!own || !withChildren) return own;
  let { reads, writes } = own;
  for (const child of childrenOf(pid)) {
    const c = readIoCalls(child);
    // A child that exited between the scan and the read is counted in its parent by now.
    if (!c && readStat(child)) return undefined;
    reads += c?.reads ?? 0;
    writes += c?.writes ?? 0;
  }
  return { reads, writes };
}

/** Reads VmRSS from a /proc/PID/status text, in bytes. The kernel writes it in units of 1,024 bytes. */
export function parseVmRssBytes(text: string): number | undefined {
  const m = /^VmRSS:\s*(\d+)\s*kB\s*$/m.exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** The resident memory of `pid` in bytes, when it runs on this machine. */
export function residentBytes(pid: number): number | undefined {
  try {
    return parseVmRssBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

// The monitor's samples include its own sampling interval; the delay is what lies beyond it.
const LOOP_RESOLUTION_MS = 10;

export interface UsageReading {
  readonly wallSeconds: number;
  /** Percent of one core over the interval. */
  readonly cpuPercent: Record<string, number | undefined>;
  readonly loadAverage: readonly number[];
  /** The bench's event-loop delay in ms. */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number };
  /**
   * Read and write system calls over the interval, of the server and of PostgreSQL. Each is undefined
   * where /proc could not tell.
   */
  readonly syscalls: Record<string, IoCalls | undefined>;
}

export interface UsageTargets {
  readonly server?: number;
  readonly postgres?: number;
  readonly proxy?: number;
}

export class UsageMeter {
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private started = 0;
  private before: Record<string, number | undefined> = {};
  private ioBefore: Record<string, IoCalls | undefined> = {};

  constructor(private readonly targets: UsageTargets) {}

  start(): void {
    this.started = performance.now();
    this.before = this.sample();
    this.ioBefore = this.sampleIo();
    this.loop.reset();
    this.loop.enable();
  }

  /** Reads the interval since start. The meter keeps running until `stop`. */
  read(): UsageReading {
    const wallSeconds = (performance.now() - this.started) / 1000;
    const now = this.sample();
    const cpuPercent: Record<string, number | undefined> = {};
    for (const key of Object.keys(now)) {
      const a = this.before[key];
      const b = now[key];
      cpuPercent[key] = a === undefined || b === undefined || wallSeconds <= 0 ? undefined : ((b - a) / wallSeconds) * 100;
    }
    const syscalls: Record<string, IoCalls | undefined> = {};
    for (const [key, b] of Object.entries(this.sampleIo())) {
      const a = this.ioBefore[key];
      syscalls[key] = a && b ? { reads: b.reads - a.reads, writes: b.writes - a.writes } : undefined;
    }
    const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
    return {
      wallSeconds,
      cpuPercent,
      loadAverage: loadAverage(),
      loopDelay: { p50: ms(this.loop.percentile(50)), p99: ms(this.loop.percentile(99)), max: ms(this.loop.max) },
      syscalls,
    };
  }

  stop(): UsageReading {
    const reading = this.read();
    this.loop.disable();
    return reading;
  }

  private sample(): Record<string, number | undefined> {
    const usage = process.cpuUsage();
    return {
      // Count every process on the machine, so that other people's work shows up as a confound.
      machine: machineBusySeconds(),
      bench: (usage.user + usage.system) / 1e6,
      server: this.targets.server ? cpuSeconds(this.targets.server) : undefined,
      postgres: this.targets.postgres ? cpuSeconds(this.targets.postgres, true) : undefined,
      proxy: this.targets.proxy ? cpuSeconds(this.targets.proxy) : undefined,
    };
  }

  private sampleIo(): Record<string, IoCalls | undefined> {
    return {
      server: this.targets.server ? ioCalls(this.targets.server) : undefined,
      postgres: this.targets.postgres ? ioCalls(this.targets.postgres, true) : undefined,
    };
  }
}

/** CPU seconds the whole machine spent busy (all cores), from /proc/stat. */
function machineBusySeconds(): number | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = f;
    return (user + nice + system + irq + softirq + (steal ?? 0)) / clockTicks();
  } catch {
    return undefined;
  }
}

function loadAverage(): number[] {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return [];
  }
}
