import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBuildInfo } from './build-info';

describe(readBuildInfo.name, () => {
  function repo(): string {
    const dir = mkdtempSync(join(tmpdir(), 'build-info-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.2.3' }));
    git('add', 'package.json');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'one');
    return dir;
  }

  it('reads the version from package.json and the short sha of HEAD', () => {
    const dir = repo();
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    expect(readBuildInfo(dir, {})).toEqual({ version: '1.2.3', sha: head });
  });

  it('marks a tree with uncommitted changes as -dirty', () => {
    const dir = repo();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.2.4' }));
    expect(readBuildInfo(dir, {}).sha).toMatch(/^[0-9a-f]{12}-dirty$/);
  });

  it('lets BUILD_SHA override, and says unknown outside a repository', () => {
    const dir = repo();
    expect(readBuildInfo(dir, { BUILD_SHA: 'abc123' }).sha).toBe('abc123');
    const bare = mkdtempSync(join(tmpdir(), 'no-git-'));
    expect(readBuildInfo(bare, {})).toEqual({ version: '0.0.0', sha: 'unknown' });
  });
});
