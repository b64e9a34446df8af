import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ServerProcess } from '../../../test/support/server-process';

// The client package as a game developer gets it: packed, installed from its tarball into an
// empty folder, and used from plain Node (ESM) and from TypeScript against the real built server.

const REPO = resolve(__dirname, '../../..');
const PACKAGE = join(REPO, 'packages/client');

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_yes: 'true' },
  });
}

describe('the @game-rooms/client package', () => {
  let folder: string;
  let tarball: { filename: string; files: { path: string }[] };
  let server: ServerProcess;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'client-package-'));
    // prepack builds dist/ with the package's own tsconfig (ESM and .d.ts).
    [tarball] = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], PACKAGE));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'first-game-client', private: true, type: 'module' }));
    // zod (the package's one dependency) and ws resolve from the registry, or the cache when it has them.
    npm(
      ['install', join(folder, tarball.filename), 'ws@8.23.0', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      folder,
    );
    server = await ServerProcess.create();
    await server.start();
  }, 180_000);

  afterAll(async () => {
    await server?.dispose();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('packs its ESM build, its declarations, its README and its license, and not its sources or tests', () => {
    const files = tarball.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/games/trivia.js',
        'dist/games/trivia.d.ts',
        'dist/games/wire-codes.js',
      ]),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f))).toEqual([]);
    expect(files.filter((f) => /spec|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/@game-rooms/client/package.json'), 'utf8'));
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.dependencies)).toEqual(['zod']);
  });

  it('resolves each game’s entry point from plain Node, built from the game’s folder, and names no game in its main one', () => {
    const script = [
      "const main = await import('@game-rooms/client');",
      "const table = (await import('@game-rooms/client/wire-codes')).WIRE_CODES;",
      'const games = {};',
      "for (const game of ['trivia', 'cards', 'tictactoe']) {",
      '  const wire = await import(`@game-rooms/client/${game}`);',
      '  const definition = Object.entries(wire).find(([name]) => name.endsWith("_WIRE"))[1];',
      '  games[game] = { exports: Object.keys(wire).sort(), kind: definition.kind, commands: Object.keys(definition.commands), keys: definition.codes.keys.length };',
      '}',
      'const named = Object.keys(main).filter((name) => /trivia|cards|tictactoe|wire_codes/i.test(name));',
      'console.log(JSON.stringify({ games, named, table: { version: table.version, kinds: table.games.map((g) => g.kind) }, defineWire: typeof main.defineWire }));',
    ].join('\n');
    writeFileSync(join(folder, 'entries.mjs'), script);
    const run = spawnSync(process.execPath, ['entries.mjs'], { cwd: folder, encoding: 'utf8', timeout: 30_000 });
    if (run.status !== 0) throw new Error(`entries.mjs exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    const out = JSON.parse(run.stdout.trim());
    expect(out.named).toEqual([]);
    expect(out.defineWire).toBe('function');
    expect(out.table).toEqual({ version: 2, kinds: ['trivia', 'cards'] });
    expect(out.games.trivia).toEqual(
      expect.objectContaining({
        kind: 'trivia',
        commands: ['room.start', 'room.answer', 'room.rematch', 'room.leave', 'room.kick', 'room.next'],
        keys: 47,
      }),
    );
    expect(out.games.trivia.exports).toEqual(
      expect.arrayContaining(['TRIVIA_COMMANDS', 'TRIVIA_EVENTS', 'TRIVIA_WIRE', 'TRIVIA_WIRE_CODES']),
    );
    expect(out.games.cards).toEqual(
      expect.objectContaining({ kind: 'cards', commands: ['table.act', 'table.rebuy', 'table.leave'], keys: 48 }),
    );
    expect(out.games.tictactoe).toEqual(expect.objectContaining({ kind: 'tictactoe', commands: ['ttt.move'], keys: 14 }));
  }, 60_000);

  it('plays a trivia question to the end from plain Node', async () => {
    copyFileSync(join(__dirname, 'client-package/play-trivia.mjs'), join(folder, 'play-trivia.mjs'));
    const run = spawnSync(process.execPath, ['play-trivia.mjs', server.url], { cwd: folder, encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`play-trivia.mjs exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!);
    // The host's socket spoke compact-v2, decoded by the package with its WIRE_CODES; the players' JSON.
    expect(out.wires).toEqual(['compact-v2', 'json', 'json']);
    expect(out.start).toBe(200);
    expect(out.answers).toEqual([200, 200]);
    expect(out.again).toEqual({ status: 409, code: 'already_answered' });
    expect(out.bad).toEqual({ status: 400, message: 'data.choice must be a whole number from 0' });
    expect(out.hostAnswer).toEqual({ status: 403, code: 'forbidden' });
    // Ann took choice 0 and Bob choice 1: one of them each, and the right one scored.
    expect(out.closed.index).toBe(out.question.index);
    expect(out.closed.counts.slice(0, 2)).toEqual([1, 1]);
    const [annId, bobId] = out.playerIds;
    const winner = out.closed.correct === 0 ? annId : out.closed.correct === 1 ? bobId : undefined;
    const byId = new Map(out.finished.standings.map((s: { playerId: string }) => [s.playerId, s]));
    expect(out.finished.standings).toHaveLength(2);
    for (const id of out.playerIds) {
      const points = (byId.get(id) as { score: number }).score;
      if (id === winner) expect(points).toBeGreaterThan(0);
      else expect(points).toBe(0);
    }
    expect(typeof out.finished.resultsId).toBe('string');
    // Every event any seat received was what the package's schemas say.
    expect(out.malformed).toEqual([]);
  }, 90_000);

  it('types commands per game for a TypeScript consumer of the installed package', () => {
    writeFileSync(
      join(folder, 'check.ts'),
      [
        "import { createClient, type TokenStorage } from '@game-rooms/client';",
        "import { CARDS_WIRE } from '@game-rooms/client/cards';",
        "import type { TriviaClient } from '@game-rooms/client/trivia';",
        'export async function play(c: TriviaClient): Promise<number> {',
        "  const ok = await c.send('room.answer', { question: 1, choice: 2 });",
        '  // @ts-expect-error choice is a number',
        "  await c.send('room.answer', { question: 1, choice: 'x' });",
        '  return ok.status;',
        '}',
        'export async function act(storage: TokenStorage): Promise<void> {',
        "  const table = createClient(CARDS_WIRE, { url: (t) => t, storage, storageKey: 'seat' });",
        "  await table.send('table.act', { action: 'raise', amount: 40 });",
        '  // @ts-expect-error not an action',
        "  await table.send('table.act', { action: 'shove' });",
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: [] },
        files: ['check.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', folder], { encoding: 'utf8' });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
    // ...and the same file without the directive fails: the check has teeth.
    writeFileSync(join(folder, 'check.ts'), readFileSync(join(folder, 'check.ts'), 'utf8').replace(/ {2}\/\/ @ts-expect-error .*\n/g, ''));
    const failing = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', folder], { encoding: 'utf8' });
    expect(failing.status).not.toBe(0);
    expect(failing.stdout).toContain("Type 'string' is not assignable to type 'number'");
    expect(failing.stdout).toContain('"shove"');
  }, 60_000);

  it('is not loaded by name by the built CommonJS server: the build compiles its source', () => {
    const out = join(REPO, 'dist/apps/game-server');
    const requiring = (readdirSync(out, { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => f.endsWith('.js'))
      .filter((f) => readFileSync(join(out, f), 'utf8').includes('require("@game-rooms/client")'));
    expect(requiring).toEqual([]);
  });
});
