import { join } from 'node:path';
import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { FAULTY_CELL } from '../../../libs/games/test/faulty-board';
import { ServerProcess } from '../../../test/support/server-process';
import { openBoard } from '../../../libs/games/tictactoe/test/tictactoe.support';
import { waitFor } from './support';

// A bug in one room is one room's problem (issue 31), in a real server process: a room whose
// game throws while publishing a committed step is let go (1012) and loads again from what was
// committed, and a promise rejection nothing handles is logged and counted; in both the process
// and its other rooms go on.

/** Far above anything these waits need: only a dead or stuck server gets here. */
const WAIT_MS = 20_000;
const PLANT = join(__dirname, 'plant-rejection.cjs');

describe('faults in a real server process', () => {
  let server: ServerProcess;
  let api: HttpApi;

  beforeAll(async () => {
    server = await ServerProcess.create({ env: { NODE_OPTIONS: `--require ${PLANT}` } });
    await server.start();
    api = new HttpApi(server.url);
  });
  afterAll(async () => {
    await server?.dispose();
  });

  const counter = async (name: string) => (await MetricsSnapshot.fetch(server.url)).value(name);
  const connect = async (token: string) => {
    const client = await SeatClient.connect(server.url, token, { timeoutMs: WAIT_MS });
    return { client, state: await client.nextEvent('ttt.state') };
  };

  it('lets a room whose publication throws go, reloads it from what was committed, and plays on in the others', () =>
    server.explainFailure(async () => {
      const other = await openBoard(server.url);
      const opened = await api.request('POST', '/api/rooms', { game: 'faulty-board', name: 'Xena', moveSeconds: 60 });
      expect(opened.status).toBe(201);
      const joined = await api.request('POST', `/api/rooms/${opened.body.code}/players`, { name: 'Otto' });
      expect(joined.status).toBe(201);
      const x = (await connect(opened.body.token)).client;
      const o = (await connect(joined.body.playerToken)).client;
      const faultsBefore = await counter('game_room_faults_total');

      // The move is committed, so its 200 stands; telling the sockets of it throws, and the room goes.
      expect((await x.send('ttt.move', { cell: FAULTY_CELL })).status).toBe(200);
      expect((await x.waitClosed()).code).toBe(1012);
      expect((await o.waitClosed()).code).toBe(1012);
      expect(await counter('game_room_faults_total')).toBe(faultsBefore + 1);
      expect(server.isRunning).toBe(true);

      // Another room of the same process never noticed.
      expect((await other.x.send('ttt.move', { cell: 0 })).status).toBe(200);
      expect((await other.o.nextEvent('ttt.moved')).data).toMatchObject({ cell: 0, mark: 'X' });

      // The room loads again at the next connection, as committed: X's move is there, O's turn.
      const back = await connect(joined.body.playerToken);
      expect(back.state.data).toMatchObject({ phase: 'playing', turn: 'O', you: 'O' });
      expect((back.state.data as { board: string[] }).board[FAULTY_CELL]).toBe('X');
      expect((await back.client.send('ttt.move', { cell: 0 })).status).toBe(200);
      for (const c of [back.client, other.x, other.o]) c.close();
    }));

  it('logs and counts a promise rejection nothing handled, and goes on serving', () =>
    server.explainFailure(async () => {
      const board = await openBoard(server.url);
      const before = await counter('game_unhandled_rejections_total');
      const { pid } = (await api.request('GET', '/health')).body as { pid: number };
      process.kill(pid, 'SIGUSR2');
      // Counted only by the handler that keeps the process alive: without it, Node 20 would exit here.
      await waitFor(async () => (await counter('game_unhandled_rejections_total')) === before + 1, 'the rejection to be counted', WAIT_MS);
      expect(server.isRunning).toBe(true);
      expect((await board.x.send('ttt.move', { cell: 4 })).status).toBe(200);
      expect((await board.o.nextEvent('ttt.moved')).data).toMatchObject({ cell: 4, mark: 'X' });
      board.x.close();
      board.o.close();
    }));
});
