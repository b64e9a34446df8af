import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BenchRun, TargetSettings } from './run';

const TARGET: TargetSettings = { instanceUrls: [], dbDelayMs: 0, serverCommand: [], serverEnv: {}, pgFast: false, pgStatements: false };

describe('BenchRun records', () => {
  let out: string;
  beforeEach(() => (out = mkdtempSync(join(tmpdir(), 'bench-records-'))));
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  // Records are written in chunks, and every one of them must be in the file, in order, at the close.
  it.each([false, true])('writes every record, in order, once the run closes (gzip %s)', async (gzip) => {
    const run = new BenchRun(out, TARGET, out, gzip);
    run.setTag('rung', 7);
    for (let i = 0; i < 20_000; i++) run.record({ type: 'room.answer', sentAt: i, ms: i / 1000, status: 200, timedOut: false });
    await run.close();
    const raw = readFileSync(join(out, run.recordsFile));
    const lines = (gzip ? gunzipSync(raw) : raw).toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines.map((l) => JSON.parse(l).sentAt)).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
    expect(JSON.parse(lines[123]).rung).toBe(7);
    expect(run.records).toHaveLength(20_000);
  });
});
