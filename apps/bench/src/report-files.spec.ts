import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rawFilesNote, UNCOMMITTED_SUFFIXES } from './report';

const repo = join(__dirname, '../../..');

/** The paths among `paths` that git ignores, by the rules alone (`git check-ignore --no-index`). */
function ignored(paths: readonly string[]): string[] {
  const r = spawnSync('git', ['check-ignore', '--no-index', ...paths], { cwd: repo, encoding: 'utf8' });
  // Status 0 means some are ignored, and 1 means none are. Anything else means git failed.
  expect([r.status, r.stderr]).toEqual([r.status === 0 ? 0 : 1, '']);
  return r.stdout.split('\n').filter(Boolean);
}

describe('bench report files', () => {
  // The bench writes its raw files next to the report, and in its metrics/ folder.
  const raw = [
    'bench/reports/some-run/records.jsonl',
    'bench/reports/some-run/records.jsonl.gz',
    'bench/reports/some-run/metrics/rung-1000-after.prom',
    'bench/reports/some-run/server.log',
    'bench/reports/a/b/records.ndjson',
    'bench/reports/a/b/records.csv',
  ];
  const kept = [
    'bench/reports/README.md',
    'bench/reports/some-run/report.md',
    'bench/reports/some-run/summary.json',
    'bench/reports/some-run/ladder.svg',
    'bench/reports/a/b/plot.png',
  ];

  it('keeps the raw files out of git and the reports, summaries and plots in', () => {
    expect(ignored([...raw, ...kept]).sort()).toEqual([...raw].sort());
  });

  it('ignores every suffix the reports call uncommitted', () => {
    const paths = UNCOMMITTED_SUFFIXES.map((s) => `bench/reports/x/file${s}`);
    expect(ignored(paths)).toEqual(paths);
  });

  it('has no raw file committed under bench/reports', () => {
    const r = spawnSync('git', ['ls-files', 'bench/reports'], { cwd: repo, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const files = r.stdout.split('\n').filter(Boolean);
    expect(files).toContain('bench/reports/README.md');
    expect(files.filter((f) => UNCOMMITTED_SUFFIXES.some((s) => f.endsWith(s)))).toEqual([]);
  });

  it("tells a report's reader the raw files are not committed and how to make a new set", () => {
    const note = rawFilesNote('npm run bench -- ladder --rungs 500 --out bench/runs/x');
    expect(note).toContain('`npm run bench -- ladder --rungs 500 --out bench/runs/x`');
    for (const s of UNCOMMITTED_SUFFIXES) expect(note).toContain(`\`*${s}\``);
  });
});
