import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';
import { BUILD_INFO_FILE, packageRoot, readBuildInfo } from './build-info';

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

  describe('a built server', () => {
    function stamp(dir: string, info: unknown): void {
      mkdirSync(dirname(join(dir, BUILD_INFO_FILE)), { recursive: true });
      writeFileSync(join(dir, BUILD_INFO_FILE), JSON.stringify(info));
    }

    it('reports the sha its build stamped, not the one the tree has moved on to', () => {
      const dir = repo();
      stamp(dir, { version: '1.2.3', sha: 'aaaaaaaaaaaa' });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.2.4' }));
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qam', 'two'], { cwd: dir });
      expect(readBuildInfo(dir, {})).toEqual({ version: '1.2.3', sha: 'aaaaaaaaaaaa' });
    });

    it('still lets BUILD_SHA override, and ignores a stamp that is not one', () => {
      const dir = repo();
      stamp(dir, { version: '1.2.3', sha: 'aaaaaaaaaaaa' });
      expect(readBuildInfo(dir, { BUILD_SHA: 'abc123' })).toEqual({ version: '1.2.3', sha: 'abc123' });
      stamp(dir, { sha: 42 });
      expect(readBuildInfo(dir, {}).sha).toMatch(/^[0-9a-f]{12}$/);
    });

    it("is stamped by npm run build's last step with the sha of the tree it was built from", () => {
      const dir = repo();
      // The step loads the compiled module that the server uses, so the test compiles build-info.ts
      // as nest build would.
      const compiled = join(dir, 'dist/apps/game-server/libs/server/src/config/build-info.js');
      mkdirSync(dirname(compiled), { recursive: true });
      const source = readFileSync(join(__dirname, 'build-info.ts'), 'utf8');
      writeFileSync(
        compiled,
        ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText,
      );
      execFileSync(process.execPath, [join(__dirname, '../../../../scripts/write-build-info.mjs')], { cwd: dir, stdio: 'ignore' });
      const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
      expect(JSON.parse(readFileSync(join(dir, BUILD_INFO_FILE), 'utf8'))).toEqual({ version: '1.2.3', sha: head });
      execFileSync(process.execPath, [join(__dirname, '../../../../scripts/write-build-info.mjs')], {
        cwd: dir,
        stdio: 'ignore',
        env: { ...process.env, BUILD_SHA: 'from-the-image' },
      });
      expect(readBuildInfo(dir, {})).toEqual({ version: '1.2.3', sha: 'from-the-image' });
    });
  });
});

describe(packageRoot.name, () => {
  // The root is the code's own checkout, not the folder the process was started in, because the A/B
  // starts another build's server from here.
  it('is the nearest folder above the code that holds a package.json', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-root-'));
    writeFileSync(join(root, 'package.json'), '{}');
    const deep = join(root, 'dist/apps/game-server/apps/game-server/src/config');
    mkdirSync(deep, { recursive: true });
    expect(packageRoot(deep)).toBe(root);
    expect(packageRoot(__dirname)).toBe(join(__dirname, '../../../..'));
  });
});
