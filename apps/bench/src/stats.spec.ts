import { MetricsSnapshot } from '@app/bot-kit';
import { MetricsDelta, percentile, ServerRestartedError, summarize } from './stats';

describe('percentile', () => {
  it('interpolates linearly between ranks', () => {
    // r = 0.5 * 3 = 1.5: halfway between 2 and 3.
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    // r = 0.9 * 4 = 3.6: 40 + 0.6 * (50 - 40).
    expect(percentile([10, 20, 30, 40, 50], 0.9)).toBeCloseTo(46, 10);
    // r = 0.25 * 3 = 0.75: 100 + 0.75 * (200 - 100).
    expect(percentile([100, 200, 400, 800], 0.25)).toBeCloseTo(175, 10);
  });

  it('returns the sample itself on an exact rank, and the ends at 0 and 1', () => {
    expect(percentile([5, 7, 9], 0.5)).toBe(7);
    expect(percentile([5, 7, 9], 0)).toBe(5);
    expect(percentile([5, 7, 9], 1)).toBe(9);
    expect(percentile([42], 0.99)).toBe(42);
  });

  it('lands beyond the timeout when the rank reaches a timed-out command', () => {
    expect(percentile([1, 2, Infinity], 0.99)).toBe(Infinity);
    expect(percentile([1, Infinity, Infinity], 1)).toBe(Infinity);
    expect(percentile([1, 2, Infinity], 0.5)).toBe(2);
  });

  it('refuses no samples and a p outside [0, 1]', () => {
    expect(() => percentile([], 0.5)).toThrow();
    expect(() => percentile([1], 1.5)).toThrow();
  });
});

describe('summarize', () => {
  it('gives p50, p95 and p99 by interpolation for twelve samples', () => {
    // Shuffled 1..12; sorted, p50 r = 5.5 -> 6.5, p95 r = 10.45 -> 11.45, p99 r = 10.89 -> 11.89.
    const s = summarize([7, 3, 12, 1, 9, 5, 11, 2, 8, 4, 10, 6]);
    expect(s.n).toBe(12);
    expect(s.p50).toBeCloseTo(6.5, 10);
    expect(s.p95).toBeCloseTo(11.45, 10);
    expect(s.p99).toBeCloseTo(11.89, 10);
    expect(s.mean).toBeCloseTo(6.5, 10);
    expect([s.min, s.max]).toEqual([1, 12]);
  });

  it('leaves p95 and p99 empty when n <= 11, and still gives p50', () => {
    const eleven = summarize([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(eleven.n).toBe(11);
    expect(eleven.p50).toBe(6);
    expect(eleven.p95).toBeUndefined();
    expect(eleven.p99).toBeUndefined();
    expect(summarize([3]).p50).toBe(3);
    expect(summarize([3]).p99).toBeUndefined();
  });

  it('gives only n for no samples', () => {
    expect(summarize([])).toEqual({ n: 0 });
  });
});

const HEADER = `# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.
# TYPE process_start_time_seconds gauge
# HELP game_command_duration_seconds Time from a command frame arriving to its reply being sent
# TYPE game_command_duration_seconds histogram
# HELP game_db_round_trips_total Round trips to PostgreSQL
# TYPE game_db_round_trips_total counter
`;

function snapshot(start: number, answer: { b5: number; b10: number; inf: number; sum: number }, trips: number): MetricsSnapshot {
  return new MetricsSnapshot(
    HEADER +
      `process_start_time_seconds ${start}
game_command_duration_seconds_bucket{le="0.005",command="room.answer",status_class="2xx"} ${answer.b5}
game_command_duration_seconds_bucket{le="0.01",command="room.answer",status_class="2xx"} ${answer.b10}
game_command_duration_seconds_bucket{le="+Inf",command="room.answer",status_class="2xx"} ${answer.inf}
game_command_duration_seconds_sum{command="room.answer",status_class="2xx"} ${answer.sum}
game_command_duration_seconds_count{command="room.answer",status_class="2xx"} ${answer.inf}
game_command_duration_seconds_bucket{le="0.005",command="ping",status_class="2xx"} 7
game_command_duration_seconds_bucket{le="0.01",command="ping",status_class="2xx"} 7
game_command_duration_seconds_bucket{le="+Inf",command="ping",status_class="2xx"} 7
game_command_duration_seconds_sum{command="ping",status_class="2xx"} 0.0021
game_command_duration_seconds_count{command="ping",status_class="2xx"} 7
game_db_round_trips_total{statement="AnswerRepository.recordAnswers"} ${trips}
`,
  );
}

describe(MetricsDelta.name, () => {
  it('gives exact means from the _sum and _count difference, with the bucket counts', () => {
    const before = snapshot(1700000000, { b5: 2, b10: 3, inf: 4, sum: 0.05 }, 4);
    // Six more answers: 1 under 5 ms, 3 in (5, 10] ms, 2 above 10 ms, adding 0.087 s.
    const after = snapshot(1700000000, { b5: 3, b10: 7, inf: 10, sum: 0.137 }, 9);
    const delta = MetricsDelta.between(before, after);
    const [answer] = delta.histograms('game_command_duration_seconds').filter((h) => h.labels.command === 'room.answer');
    expect(answer.count).toBe(6);
    expect(answer.meanMs).toBeCloseTo(14.5, 9); // 87 ms / 6
    expect(answer.buckets).toEqual([
      { leMs: 5, count: 1 },
      { leMs: 10, count: 3 },
      { leMs: Infinity, count: 2 },
    ]);
    // Unchanged label sets drop out, and counters subtract.
    expect(delta.histograms('game_command_duration_seconds').map((h) => h.labels.command)).toEqual(['room.answer']);
    expect(delta.counterBy('game_db_round_trips_total', 'statement')).toEqual([{ key: 'AnswerRepository.recordAnswers', value: 5 }]);
  });

  it('merges label sets it is not asked to keep', () => {
    const before = snapshot(1, { b5: 0, b10: 0, inf: 0, sum: 0 }, 0);
    const after = snapshot(1, { b5: 1, b10: 1, inf: 1, sum: 0.004 }, 1);
    const all = MetricsDelta.between(before, after).histograms('game_command_duration_seconds', []);
    expect(all).toHaveLength(1);
    expect(all[0].count).toBe(1);
  });

  it('refuses the difference when process_start_time_seconds changed between snapshots', () => {
    const before = snapshot(1700000000, { b5: 2, b10: 3, inf: 4, sum: 0.05 }, 4);
    const after = snapshot(1700000100, { b5: 3, b10: 7, inf: 10, sum: 0.137 }, 9);
    expect(() => MetricsDelta.between(before, after)).toThrow(ServerRestartedError);
  });

  it('refuses when the start time is missing, or a counter went down', () => {
    const noStart = new MetricsSnapshot('# TYPE x_total counter\nx_total 3\n');
    expect(() => MetricsDelta.between(noStart, noStart)).toThrow(ServerRestartedError);
    const before = snapshot(5, { b5: 2, b10: 3, inf: 4, sum: 0.05 }, 4);
    const reset = snapshot(5, { b5: 0, b10: 0, inf: 1, sum: 0.001 }, 1);
    expect(() => MetricsDelta.between(before, reset)).toThrow(ServerRestartedError);
  });

  it('adds intervals of one arm', () => {
    const a = MetricsDelta.between(snapshot(1, { b5: 0, b10: 0, inf: 0, sum: 0 }, 0), snapshot(1, { b5: 1, b10: 2, inf: 2, sum: 0.01 }, 2));
    const b = MetricsDelta.between(snapshot(2, { b5: 0, b10: 0, inf: 0, sum: 0 }, 0), snapshot(2, { b5: 0, b10: 0, inf: 2, sum: 0.05 }, 2));
    const [answer] = MetricsDelta.sum([a, b])
      .histograms('game_command_duration_seconds')
      .filter((h) => h.labels.command === 'room.answer');
    expect(answer.count).toBe(4);
    expect(answer.meanMs).toBeCloseTo(15, 9);
  });
});
