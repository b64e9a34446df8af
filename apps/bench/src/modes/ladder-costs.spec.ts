import { MetricsSnapshot } from '@app/bot-kit';
import { UsageReading } from '../host-usage';
import { MetricsDelta } from '../stats';
import { bytesPerAnswer, cpuMsPerAnswer, fmtSyscallsPerAnswer, rssPerSocketKb, serverRss, syscallsPerAnswer } from './ladder-costs';

const usage: UsageReading = {
  wallSeconds: 30,
  cpuPercent: { server: 50, postgres: undefined },
  loadAverage: [],
  loopDelay: { p50: 0, p99: 0, max: 0 },
  syscalls: { server: { writes: 45_000, reads: 31_500 }, postgres: undefined },
};

describe('cpuMsPerAnswer', () => {
  it('spreads the window CPU time over the answers handled in it', () => {
    // Half a core for 30 s is 15,000 ms of CPU; over 30,000 answers, 0.5 ms each.
    expect(cpuMsPerAnswer(usage, 'server', 30_000)).toBeCloseTo(0.5, 10);
  });

  it('says nothing without a reading or without answers', () => {
    expect(cpuMsPerAnswer(usage, 'postgres', 30_000)).toBeUndefined();
    expect(cpuMsPerAnswer(usage, 'server', 0)).toBeUndefined();
    expect(cpuMsPerAnswer(undefined, 'server', 10)).toBeUndefined();
  });
});

describe('rssPerSocketKb', () => {
  const mib = 2 ** 20;
  it('divides what the rung added to the idle process by the sockets open, in KB of 1,024 bytes', () => {
    // 120 MiB idle, 170 MiB with 2,500 sockets: 50 MiB / 2,500 = 20.48 KB a socket.
    expect(rssPerSocketKb({ bytes: 120 * mib, source: 'proc' }, { bytes: 170 * mib, source: 'proc' }, 2500)).toBeCloseTo(20.48, 10);
  });

  it('keeps a shrink negative (the collector returned memory): the figure is not clamped to look plausible', () => {
    expect(rssPerSocketKb({ bytes: 100 * mib, source: 'proc' }, { bytes: 99 * mib, source: 'proc' }, 1024)).toBeCloseTo(-1, 10);
  });

  it('says nothing without both readings or without sockets', () => {
    const r = { bytes: mib, source: 'proc' as const };
    expect(rssPerSocketKb(undefined, r, 10)).toBeUndefined();
    expect(rssPerSocketKb(r, undefined, 10)).toBeUndefined();
    expect(rssPerSocketKb(r, r, 0)).toBeUndefined();
    expect(rssPerSocketKb(r, r, undefined)).toBeUndefined();
  });
});

describe('serverRss', () => {
  const metrics = new MetricsSnapshot(
    ['# TYPE process_resident_memory_bytes gauge', 'process_resident_memory_bytes 123456789', ''].join('\n'),
  );

  it('reads VmRSS of a process on this machine, in bytes', () => {
    const r = serverRss(process.pid, metrics);
    expect(r?.source).toBe('proc');
    // This test process holds more than a mebibyte and less than what the machine has.
    expect(r!.bytes).toBeGreaterThan(2 ** 20);
    expect(r!.bytes % 1024).toBe(0);
    expect(r!.bytes).not.toBe(123456789);
  });

  it("falls back to the server's own gauge when the process is not here, and to nothing without it", () => {
    expect(serverRss(undefined, metrics)).toEqual({ bytes: 123456789, source: 'metrics' });
    // No process has this pid (it is above the kernel's pid_max), so /proc has nothing to read.
    expect(serverRss(2 ** 23, metrics)).toEqual({ bytes: 123456789, source: 'metrics' });
    expect(serverRss(undefined, new MetricsSnapshot('game_sockets_open 3\n'))).toBeUndefined();
    expect(serverRss(undefined, undefined)).toBeUndefined();
  });
});

describe('syscalls per answer', () => {
  it('divides the write and read system calls of the window by the answers', () => {
    expect(syscallsPerAnswer(usage, 'server', 30_000)).toEqual({ writes: 1.5, reads: 1.05 });
    expect(fmtSyscallsPerAnswer(usage, 'server', 30_000)).toBe('1.50 / 1.05');
  });

  it('says "not available" where /proc could not be read, and "-" when nothing was answered', () => {
    expect(syscallsPerAnswer(usage, 'postgres', 30_000)).toBeUndefined();
    expect(fmtSyscallsPerAnswer(usage, 'postgres', 30_000)).toBe('not available');
    expect(fmtSyscallsPerAnswer(undefined, 'server', 30_000)).toBe('not available');
    expect(fmtSyscallsPerAnswer(usage, 'server', 0)).toBe('-');
    // A measured zero is a zero, not "not available".
    const idle = { ...usage, syscalls: { server: { writes: 0, reads: 0 } } };
    expect(fmtSyscallsPerAnswer(idle, 'server', 10)).toBe('0.00 / 0.00');
  });
});

describe('bytesPerAnswer', () => {
  const snapshot = (bytes: [string, number][], answers: number) =>
    new MetricsSnapshot(
      [
        '# TYPE process_start_time_seconds gauge',
        'process_start_time_seconds 1',
        '# TYPE game_ws_outbound_bytes_total counter',
        ...bytes.map(([kind, v]) => `game_ws_outbound_bytes_total{kind="${kind}",wire="compact-v2"} ${v}`),
        '# TYPE game_command_duration_seconds histogram',
        `game_command_duration_seconds_count{command="room.answer",status_class="2xx"} ${answers}`,
        '',
      ].join('\n'),
    );

  it('sums every kind of the difference and divides by the answers', () => {
    const delta = MetricsDelta.between(
      snapshot(
        [
          ['reply', 1000],
          ['question.open', 5000],
        ],
        10,
      ),
      snapshot(
        [
          ['reply', 1600],
          ['question.open', 8400],
        ],
        30,
      ),
    );
    // (600 + 3,400) bytes over 20 answers.
    expect(bytesPerAnswer(delta, 20)).toBe(200);
  });

  it('says nothing without a difference or without answers', () => {
    expect(bytesPerAnswer(undefined, 20)).toBeUndefined();
    const delta = MetricsDelta.between(snapshot([['reply', 1]], 1), snapshot([['reply', 2]], 1));
    expect(bytesPerAnswer(delta, 0)).toBeUndefined();
  });
});
