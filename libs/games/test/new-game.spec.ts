import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// These tests check `npm run new-game`. The game it writes type-checks and passes its own spec, run
// by a jest of its own as its author would run it. The script refuses a bad or taken name, and
// --register adds one line to the registry. The game is written into a folder of its own outside
// the repository (with the repository's node_modules linked in), never into libs/games. There, a
// build or a scan running beside this test would meet it (the client package's build reads every
// game's wire in libs/games).

const ROOT = join(__dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/new-game.mjs');
const REGISTRY = 'apps/game-server/src/games.ts';
const newGame = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
// A name that no other run takes, made of lower-case letters and digits.
const NAME = `zz${process.pid}${Date.now().toString(36)}`.replace(/[^a-z0-9]/g, '');
const OUTSIDE = mkdtempSync(join(tmpdir(), 'new-game-'));
const FOLDER = join(OUTSIDE, 'libs/games', NAME);

beforeAll(() => symlinkSync(join(ROOT, 'node_modules'), join(OUTSIDE, 'node_modules'), 'dir'));
afterAll(() => rmSync(OUTSIDE, { recursive: true, force: true }));

describe('npm run new-game', () => {
  it('writes a game that type-checks and passes its own spec through testGame', () => {
    const wrote = newGame(NAME, '--root', OUTSIDE);
    expect(wrote.stderr).toBe('');
    expect(wrote.status).toBe(0);
    expect(
      ['index.ts', `${NAME}.game.ts`, `${NAME}.wire.ts`, `${NAME}.spec.ts`].filter((f) => !existsSync(join(FOLDER, 'src', f))),
    ).toEqual([]);

    // The game's files must be laid out the way `npm test` checks the repository's own files.
    const layout = spawnSync(
      process.execPath,
      [require.resolve('prettier/bin/prettier.cjs'), '--check', '--config', join(ROOT, '.prettierrc.json'), join(FOLDER, 'src')],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(layout.status).toBe(0);

    // The game uses the repository's compiler options and paths (`@app/*`, `@game-rooms/client`), resolved from the repository.
    writeFileSync(join(FOLDER, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['src/**/*.ts'] }));
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', join(FOLDER, 'tsconfig.json')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // The spec runs under the repository's jest, without the database its global setup starts,
    // because the spec needs none. Jest's config is a CommonJS file outside the TypeScript project, so it is required as such.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { globalSetup: _setup, globalTeardown: _teardown, ...config } = require(join(ROOT, 'jest.config.js'));
    const jest = spawnSync(
      process.execPath,
      [require.resolve('jest/bin/jest'), '--config', JSON.stringify({ ...config, rootDir: ROOT, roots: [FOLDER] }), FOLDER],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(jest.stderr).toMatch(/Tests: +1 passed, 1 total/);
    expect(jest.status).toBe(0);
    // The timeout is generous because the test runs a type-check and a jest of its own, on a busy machine.
  }, 180_000);

  it.each([
    ['a name with capitals and a dash', 'Dice-Race', /is not a game's name/],
    ['a name too short', 'ab', /is not a game's name/],
    ['a name a folder has', 'trivia', /'trivia' is taken: libs\/games\/trivia exists/],
  ])('refuses %s and writes nothing', (_what, name, message) => {
    const refused = newGame(name);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(message);
    if (name !== 'trivia') expect(existsSync(join(ROOT, 'libs/games', name))).toBe(false);
  });

  it('adds the game to the registry in one line (and its import) when asked, in a copy of the repository', () => {
    const copy = mkdtempSync(join(tmpdir(), 'new-game-'));
    try {
      mkdirSync(join(copy, 'apps/game-server/src/rooms'), { recursive: true });
      copyFileSync(join(ROOT, REGISTRY), join(copy, REGISTRY));
      expect(newGame('dice', '--register', '--root', copy).status).toBe(0);
      const before = readFileSync(join(ROOT, REGISTRY), 'utf8').split('\n');
      const after = readFileSync(join(copy, REGISTRY), 'utf8').split('\n');
      expect(after.filter((line) => !before.includes(line))).toEqual([
        "import { dice } from '@app/games/dice';",
        expect.stringMatching(/^export const GAMES: readonly GameModule\[\] = \[.*, dice, \.\.\.\(SERVES_TEST_GAMES/),
      ]);
      expect(existsSync(join(copy, 'libs/games/dice/src/dice.game.ts'))).toBe(true);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
