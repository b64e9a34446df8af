import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuiltBench, REPO, runBench } from '../test/built-bench';

// This test runs the bench as a user runs it. Its built script starts PostgreSQL, the delay proxy
// and the built server, plays two rooms, and freezes the server (SIGSTOP) once per question. Only
// what is deterministic is asserted: the report is complete and its counts add up. A latency is
// never asserted, and neither are the server's own figures (false 503s, rooms let go), which are
// the report's to say.

jest.setTimeout(300_000);

const SERVER = join(REPO, 'dist/apps/game-server/apps/game-server/src/main.js');

const sum = (o: Record<string, number>) => Object.values(o).reduce((t, v) => t + v, 0);

describe('bench steady mode with --starve, against a real server process', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-steady-'));
  let summary: any;
  let report: string;

  beforeAll(async () => {
    if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npx nest build game-server\` first (npm test does it)`);
    await ensureBuiltBench();
    // Two rooms of four play two questions, with a 1.5 s freeze in each. Short pauses keep the stream
    // dense, and a long question clock keeps every answer inside its question on a busy machine.
    const result = await runBench([
      'steady',
      '--rooms',
      '2',
      '--questions',
      '2',
      '--seconds-per-question',
      '30',
      '--pause-ms',
      '100',
      '--pause-spread-ms',
      '1000',
      '--starve',
      '1.5',
      '--db-delay-ms',
      '5',
      '--pg-fast',
      '--out',
      out,
    ]);
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    report = readFileSync(join(out, 'report.md'), 'utf8');
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('seats both rooms and freezes the server once per question', () => {
    expect(summary.mode).toBe('steady');
    expect(summary.interrupted).toBe(false);
    expect(summary.rooms).toEqual({ opened: 2, seated: 2, refusedAt: { open: 0, join: 0, socket: 0 }, errors: [] });
    expect(summary.settings).toMatchObject({ rooms: 2, seats: 4, questions: 2, starveMs: 1500 });
    expect(summary.freezes.map((f: { question: number }) => f.question)).toEqual([0, 1]);
  });

  it('accounts for every answer once: first replies and verdicts add up', () => {
    const a = summary.playing.answers;
    expect(a.sent).toBe(2 * 4 * 2);
    expect(sum(a.firstReplies)).toBe(a.sent);
    expect(a.firstReplies['200'] ?? 0).toBe(a.acknowledged);
    expect(sum(a.verdicts)).toBe(a.sent - a.acknowledged);
    // Every answer not acknowledged was resent once its question closed, because the run waits for
    // the resends.
    expect(a.verdicts['not-resent']).toBe(0);
    expect(a.resent).toBe(a.sent - a.acknowledged);
    expect(a.false503).toBe(a.falseRefusals['503'] ?? 0);
    expect(a.recorded).toBe(a.acknowledged + a.verdicts.lied + a.verdicts['recorded-unanswered']);
    expect(summary.playing.acknowledgedMs.n).toBe(a.acknowledged);
    expect(summary.playing.rooms).toBe(2);
  });

  it('checks every question that has an acknowledged answer against its question.closed', () => {
    const m = summary.playing.missing;
    expect(m.questions).toBeGreaterThan(0);
    expect(m.questions).toBeLessThanOrEqual(2 * 2);
    expect(m.closeNotSeen).toBe(0);
    expect(m.shortCount).toBe(m.short.length);
    expect(m.missing).toBe(m.short.reduce((t: number, s: { acknowledged: number; counted: number }) => t + s.acknowledged - s.counted, 0));
  });

  it('counts rooms let go from the sockets and from the server log it read', () => {
    const g = summary.playing.lettingGo;
    expect(typeof g.logLines).toBe('number');
    expect(g.sockets1012).toBe(summary.playing.socketsClosed['1012'] ?? 0);
    expect(g.rooms1012).toBeLessThanOrEqual(2);
    expect(summary.checks.map((c: { what: string }) => c.what)).toEqual([
      'false 503s (a 503 whose answer had been recorded)',
      'rooms let go',
      'acknowledged answers missing from `question.closed`',
    ]);
    for (const c of summary.checks) expect(typeof c.ok).toBe('boolean');
  });

  // What the server promises a frozen process (docs/design.md, "A 503 means nothing was recorded"):
  // answers in flight when it stopped, and those sent while it stood still, are settled truthfully
  // when it wakes. A truthful 503 is allowed (a statement may have run out of time); a false one is not.
  it('finds the frozen server truthful: no false 503, no room let go, no acknowledged answer missing', () => {
    expect(summary.playing.answers.false503).toBe(0);
    expect(summary.playing.answers.verdicts.lied).toBe(0);
    expect(summary.playing.lettingGo).toMatchObject({ sockets1012: 0, rooms1012: 0, logLines: 0 });
    expect(summary.playing.missing.missing).toBe(0);
  });

  it('offers new work during each freeze, and every try is admitted or refused', () => {
    const w = summary.newWork;
    expect(w.opens.tried).toBe(2);
    expect(w.joins.tried).toBe(w.opens.admitted);
    for (const kind of [w.opens, w.joins, w.sockets]) {
      expect(kind.admitted + sum(kind.refused)).toBe(kind.tried);
      expect(sum(kind.retryAfter)).toBe(sum(kind.refused));
    }
  });

  it('writes the report in the usual form, with the command that made it', () => {
    expect(report).toContain('npm run bench -- steady --rooms 2');
    for (const heading of [
      '## What the issue expects',
      '## Rooms already playing',
      '## Freezes',
      '## New work',
      "## The server's own counts",
      '## Distances',
      '## Confounds',
      '## Files',
    ]) {
      expect(report).toContain(heading);
    }
    expect(existsSync(join(out, 'records.jsonl'))).toBe(true);
    expect(existsSync(join(out, 'server.log'))).toBe(true);
  });
});
