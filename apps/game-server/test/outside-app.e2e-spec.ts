import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createEmptyDatabase } from '../../../test/support/database';

// The server as a team outside this repository gets it: @game-rooms/server and @game-rooms/client
// packed, installed from their tarballs into an empty folder of its own, and a game of that team's
// (written here, with the packed package's defineGame) served by a Nest app of its own on a
// database with nothing in it, which the package migrates. Nothing of this checkout is reachable
// from that folder: it lies outside /work, and NODE_PATH names its own node_modules alone.

const REPO = resolve(__dirname, '../../..');
const GAME_TIMEOUT_MS = 90_000;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_yes: 'true' },
  });
}

// The team's wire and game: a tally to a target, one seat, one command. The wire comes from the
// client package (so the team's pages can use it too), the game from the server package.
const TALLY_GAME = `
import { z } from 'zod';
import { commandData, defineWire, integerField } from '@game-rooms/client';
import server from '@game-rooms/server';

const { defineGame, refuse } = server;

export const TALLY_WIRE = defineWire({
  kind: 'tally',
  commands: { 'tally.add': commandData({ by: integerField('must be a whole number from 1 to 5', 1, 5) }) },
  events: {
    'tally.state': z.object({ code: z.string(), phase: z.enum(['counting', 'reached', 'closed']), target: z.number(), total: z.number() }),
    'tally.added': z.object({ by: z.number(), total: z.number() }),
    'tally.reached': z.object({ total: z.number() }),
  },
  stateEvent: 'tally.state',
});

const view = (state) => ({ code: state.code, phase: state.phase, target: state.target, total: state.total });

export const tally = defineGame({
  wire: TALLY_WIRE,
  settings: z.object({ name: z.string().min(1).max(32), target: z.number().int().min(1).max(100).default(3) }),
  setup: (settings, opened) => ({ code: opened.code, phase: 'counting', target: settings.target, total: 0, seats: [{ id: opened.opener, name: settings.name, connected: false }] }),
  commands: {
    'tally.add': {
      roles: ['player'],
      decide: (state, { by }) => {
        if (state.phase !== 'counting') refuse('not_counting', 'the target is reached');
        if (state.total + by > state.target) refuse('past_target', 'that would pass the target');
        const total = state.total + by;
        const reached = total === state.target;
        const events = [{ type: 'tally.added', data: { by, total } }, ...(reached ? [{ type: 'tally.reached', data: { total } }] : [])];
        return { state: { ...state, total, phase: reached ? 'reached' : 'counting' }, events, effects: [], reply: { total } };
      },
    },
  },
  view,
  describe: view,
  isOver: (state) => state.phase !== 'counting',
});
`;

// The team's app: GameRoomsModule.forRoot with its one game, the WebSocket adapter, a listen;
// then it opens a room over HTTP and plays it to the target through the packed client.
const OUTSIDE_APP = `
import { createRequire } from 'node:module';
import { NestFactory } from '@nestjs/core';
import { createClient } from '@game-rooms/client';
import server from '@game-rooms/server';
import WebSocket from 'ws';
import { tally, TALLY_WIRE } from './tally.game.mjs';

const { GameRoomsModule, gameRoomsAdapter } = server;
const TIMEOUT_MS = 15_000;
const require = createRequire(import.meta.url);

const app = await NestFactory.create(GameRoomsModule.forRoot({ games: [tally], database: { url: process.argv[2] }, config: { logLevel: 'warn' } }), { logger: false });
app.useWebSocketAdapter(gameRoomsAdapter(app));
await app.listen(0, '127.0.0.1');
const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');

const opened = await fetch(base + '/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'tally', name: 'Ann', target: 3 }) });
const room = await opened.json();
const unknown = await fetch(base + '/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'trivia', hostName: 'Host' }) });

const storage = new Map();
const client = createClient(TALLY_WIRE, {
  url: (token) => base.replace(/^http/, 'ws') + '/ws?token=' + encodeURIComponent(token),
  storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
  storageKey: 'seat',
  token: room.token,
  createSocket: (url) => new WebSocket(url),
});
const seen = [];
const waiting = [];
for (const type of Object.keys(TALLY_WIRE.events)) {
  client.on(type, (data) => {
    seen.push({ type, data });
    for (const w of waiting.filter((w) => w.type === type)) w.resolve(data);
  });
}
const next = (type) =>
  seen.some((e) => e.type === type)
    ? Promise.resolve(seen.find((e) => e.type === type).data)
    : new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ' + type + ' within ' + TIMEOUT_MS + ' ms')), TIMEOUT_MS);
        waiting.push({ type, resolve: (d) => { clearTimeout(timer); resolve(d); } });
      });
client.start();
const first = await next('tally.state');
const replies = [];
replies.push(await client.send('tally.add', { by: 1 }));
replies.push(await client.send('tally.add', { by: 9 }));
replies.push(await client.send('tally.add', { by: 5 }));
replies.push(await client.send('tally.add', { by: 2 }));
const reached = await next('tally.reached');
replies.push(await client.send('tally.add', { by: 1 }));
const summary = await (await fetch(base + '/api/rooms/' + room.code)).json();
client.close();
await app.close();
console.log(JSON.stringify({
  opened: { status: opened.status, game: room.game, role: room.role, token: typeof room.token },
  unknown: { status: unknown.status, code: (await unknown.json()).code },
  first,
  replies: replies.map((r) => ({ status: r.status, data: r.data, code: r.error?.code })),
  events: seen.map((e) => e.type),
  reached,
  summary,
  resolved: { server: require.resolve('@game-rooms/server'), nest: require.resolve('@nestjs/core'), zod: require.resolve('zod') },
}));
`;

describe('the @game-rooms/server package, in an app outside this repository', () => {
  let folder: string;
  let databaseUrl: string;
  let packed: string[];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'outside-app-'));
    // prepack builds each package's dist/ with its own tsconfig.
    const [server] = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], join(REPO, 'packages/server')));
    packed = (server.files as { path: string }[]).map((f) => f.path);
    const [client] = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], join(REPO, 'packages/client')));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'outside-app', private: true, type: 'module' }));
    // The two tarballs; their dependencies (Nest's core as the server's peers) and ws from the registry, or the cache when it has them.
    npm(
      [
        'install',
        join(folder, server.filename),
        join(folder, client.filename),
        'ws@8.23.0',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
      ],
      folder,
    );
    writeFileSync(join(folder, 'tally.game.mjs'), TALLY_GAME);
    writeFileSync(join(folder, 'outside-app.mjs'), OUTSIDE_APP);
    databaseUrl = await createEmptyDatabase();
  }, 240_000);

  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(
    'serves a game of its own: migrates an empty database, opens a room over HTTP and plays it over WebSocket to the end',
    async () => {
      expect(folder.startsWith(REPO)).toBe(false);
      const run = spawnSync(process.execPath, ['outside-app.mjs', databaseUrl], {
        cwd: folder,
        encoding: 'utf8',
        timeout: GAME_TIMEOUT_MS,
        // Only the folder's own packages: no NODE_PATH into this checkout, no jest environment.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_PATH: join(folder, 'node_modules') },
      });
      if (run.status !== 0) throw new Error(`outside-app.mjs exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
      const out = JSON.parse(run.stdout.trim().split('\n').pop()!);

      // Every module came from the folder's own node_modules.
      for (const path of Object.values(out.resolved as Record<string, string>))
        expect(path.startsWith(join(folder, 'node_modules'))).toBe(true);
      // The room is the team's game, opened by its first player; a game the app does not serve is refused.
      expect(out.opened).toEqual({ status: 201, game: 'tally', role: 'player', token: 'string' });
      expect(out.unknown).toEqual({ status: 400, code: 'bad_data' });
      expect(out.first).toEqual(expect.objectContaining({ phase: 'counting', target: 3, total: 0 }));
      expect(out.replies).toEqual([
        { status: 200, data: { total: 1 } },
        { status: 400, code: 'bad_data' },
        { status: 409, code: 'past_target' },
        { status: 200, data: { total: 3 } },
        expect.objectContaining({ status: 409 }),
      ]);
      expect(out.reached).toEqual({ total: 3 });
      expect(out.events).toEqual(['tally.state', 'tally.added', 'tally.added', 'tally.reached']);
      expect(out.summary).toEqual(expect.objectContaining({ game: 'tally', phase: 'reached', total: 3 }));

      // The package's migrations made the schema, and the room and its accepted commands are in it.
      const db = new Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const shipped = readFileSync(join(REPO, 'migrations/index.ts'), 'utf8').match(/^import \{ \w+ \} from '\.\/\d+-/gm)!.length;
        expect(Number((await db.query('SELECT count(*) FROM migrations')).rows[0].count)).toBe(shipped);
        expect((await db.query('SELECT game FROM rooms')).rows).toEqual([{ game: 'tally' }]);
      } finally {
        await db.end();
      }
    },
    GAME_TIMEOUT_MS + 30_000,
  );

  it('packs the built server with its declarations and migrations, its README and LICENSE, and no source or test', () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/libs/server/src/index.js',
        'dist/libs/server/src/index.d.ts',
        'dist/migrations/index.js',
      ]),
    );
    expect(packed.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f))).toEqual([]);
    expect(packed.filter((f) => /spec|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/@game-rooms/server/package.json'), 'utf8'));
    expect(manifest.main).toBe('./dist/libs/server/src/index.js');
    // The aliases of this repository's tsconfig were turned into paths: the package loads nothing by them.
    expect(readFileSync(join(folder, 'node_modules/@game-rooms/server/dist/libs/server/src/game-rooms.module.js'), 'utf8')).not.toMatch(
      /require\("@app\/|require\("@game-rooms\/client"\)/,
    );
  });
});
