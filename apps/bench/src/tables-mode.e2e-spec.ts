import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningServer } from '../../game-server/src/server';
import { startTestServer } from '../../../test/support/test-server';
import { ensureBuiltBench, runBench } from '../test/built-bench';

// This test runs the bench as a user runs it (a built script that forks its shards as child
// processes), against a real server. Only what is deterministic is asserted: the completeness and
// consistency of the report, never a latency or a rate.

// The tables deal a hand in well under a second, so that a window of a few seconds sees several.
// The ramp gives three tables six seconds to be seated, because a busy machine (CI, or other suites
// beside this one) has been seen to need more than two.
const FAST = ['--bot-think-ms', '5,20', '--hand-pause-ms', '20', '--pause-ms', '5', '--pause-spread-ms', '20'];

interface KindCount {
  frames: number;
  bytes: number;
}

function expectConsistent(summary: any, tables: number, shards: number): void {
  expect(summary.mode).toBe('tables');
  expect(summary.tables).toBe(tables);
  expect(summary.shards).toBe(shards);
  expect(summary.build).toEqual({ version: 'test', sha: 'test' });
  expect(summary.grantedWire).toEqual({ json: tables });
  expect(summary.tablesOpened).toBe(tables);
  expect(summary.seatedAtWindowStart).toBe(tables);
  expect(summary.failures).toBe(0);
  expect(summary.shardErrors).toEqual([]);
  expect(summary.unresolved).toBe(0);
  expect(summary.interrupted).toBe(false);
  // Play happened in the window, and every action in it succeeded.
  expect(summary.handsCompleted).toBeGreaterThan(0);
  expect(summary.actions.n).toBeGreaterThan(0);
  expect(summary.actions.errors).toBe(0);
  expect(summary.actions.statuses).toEqual({ 200: summary.actions.n });
  // Bytes and frames by kind add up to the totals, and the per-hand and rate figures follow from them.
  const kinds = Object.values(summary.byKind) as KindCount[];
  expect(summary.frames).toBeGreaterThan(0);
  expect(kinds.reduce((t, k) => t + k.bytes, 0)).toBe(summary.bytes);
  expect(kinds.reduce((t, k) => t + k.frames, 0)).toBe(summary.frames);
  for (const kind of ['hand.started', 'action.applied', 'hand.finished', 'reply']) expect(summary.byKind[kind].frames).toBeGreaterThan(0);
  expect(summary.bytesPerHand).toBeCloseTo(summary.bytes / summary.handsCompleted, 6);
  expect(summary.framesPerHand).toBeCloseTo(summary.frames / summary.handsCompleted, 6);
  expect(summary.mbps).toBeCloseTo((summary.bytes * 8) / summary.window.seconds / 1e6, 9);
  // Every human action is durable, with one statement each, and nothing is evicted. The server
  // counts a statement when it is sent and a command when it is answered, so an action in flight at
  // either edge of the window (at most one per table) may be in one count and not the other.
  // tables.e2e-spec.ts asserts the exact budget of one statement per action.
  expect(summary.server.refused).toBeNull();
  expect(Math.abs(summary.server.roundTripsPerAct - 1)).toBeLessThanOrEqual((2 * tables) / summary.actions.n);
  expect(summary.evictions).toEqual({ client4009: 0, server: {}, total: 0 });
  expect(summary.bench.shards).toHaveLength(shards);
}

describe('bench tables mode against a real server', () => {
  let server: RunningServer;
  const outs: string[] = [];

  beforeAll(async () => {
    // The test runs the bench as built from this tree.
    await ensureBuiltBench();
    server = await startTestServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    for (const dir of outs) rmSync(dir, { recursive: true, force: true });
  });

  const out = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tables-'));
    outs.push(dir);
    return dir;
  };

  it('plays 3 tables over 2 shards and writes a complete, consistent report', async () => {
    const dir = out();
    const result = await runBench([
      'tables',
      '--url',
      server.url,
      '--tables',
      '3',
      '--shards',
      '2',
      '--seconds',
      '3',
      '--ramp-seconds',
      '6',
      ...FAST,
      '--out',
      dir,
    ]);
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expectConsistent(summary, 3, 2);
    expect(summary.egressMbps).toBeNull();
    expect(summary.shaper).toBeNull();
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(report).toContain('4.07 Mbit/s of JSON');
    expect(report).toContain('### Frames and bytes by message kind');
    expect(existsSync(join(dir, 'records.jsonl'))).toBe(true);
    expect(existsSync(join(dir, 'metrics', 'window-before.prom'))).toBe(true);
  }, 60_000);

  it('with --egress-mbps, plays through the shaper, which never holds more than its bound', async () => {
    const dir = out();
    const result = await runBench([
      'tables',
      '--url',
      server.url,
      '--tables',
      '3',
      '--shards',
      '2',
      '--seconds',
      '3',
      '--ramp-seconds',
      '6',
      '--egress-mbps',
      '5',
      ...FAST,
      '--out',
      dir,
    ]);
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expectConsistent(summary, 3, 2);
    expect(summary.egressMbps).toBe(5);
    expect(summary.shaper.deliveredBytes).toBeGreaterThan(0);
    expect(summary.shaper.maxHeldBytes).toBeLessThanOrEqual(64 * 1024);
  }, 60_000);

  it('refuses an unknown profile before it starts anything', async () => {
    const result = await runBench(['tables', '--url', server.url, '--tables', '3', '--wire', 'compact-v9']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--wire takes json, compact-v1, compact-v2 or compact-v3');
  });
});
