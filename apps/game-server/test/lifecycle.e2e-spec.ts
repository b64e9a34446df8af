import { DelayProxy, SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { RoomsService } from '../../../libs/server/src/rooms/rooms.service';
import { createTestDatabase } from '../../../test/support/database';
import { startTestServer, withTestServer } from '../../../test/support/test-server';
import { closeAll, holdTable, journaled, queryDb, seatRoom, untilMailboxDepth, untilWaitingOnLock, waitFor } from './support';

describe('room lifecycle', () => {
  describe('on one server', () => {
    let server: RunningServer;
    // Holds table locks on purpose: a held lock must not run into the command budget, which is for outages.
    // Without pipelining (depth 1), a command behind the statement in flight waits in the mailbox, whose bound is tested here.
    withTestServer((s) => (server = s), { mailboxDepth: 1, pipelineDepth: 1, passivateAfterMs: 300, commandTimeoutMs: 60_000 });

    it('tells players of a room closed through the HTTP API (NOTIFY): room.closed, then 4004', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      const res = await fetch(`${server.url}/api/rooms/${room.code.toLowerCase()}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${room.hostToken}` },
      });
      expect(res.status).toBe(204);
      for (const p of room.players) {
        expect((await p.nextEvent('room.closed')).data).toEqual({ reason: 'host_closed' });
        expect((await p.waitClosed()).code).toBe(4004);
      }
      const join = await new HttpApi(server.url).request('POST', `/api/rooms/${room.code}/players`, { name: 'Late' });
      expect(join).toMatchObject({ status: 410, body: { code: 'room_gone' } });
      const [row] = await queryDb(server, 'SELECT closed_at IS NOT NULL AS closed, closed_reason FROM rooms WHERE id = $1', [room.roomId]);
      expect(row).toEqual({ closed: true, closed_reason: 'host_closed' });
    });

    it('hears a close made by another process straight in the database', async () => {
      const room = await seatRoom(server, ['Ann']);
      // What another instance would do: the same statement, on its own connection.
      await queryDb(
        server,
        `WITH c AS (UPDATE rooms SET closed_at = now(), closed_reason = 'operator' WHERE id = $1 RETURNING id, trim(code) AS code)
         SELECT pg_notify('room_changes', json_build_object('roomId', id, 'code', code, 'change', 'closed', 'reason', 'operator')::text) FROM c`,
        [room.roomId],
      );
      expect((await room.players[0].nextEvent('room.closed')).data.reason).toBe('operator');
      expect((await room.host.waitClosed()).code).toBe(4004);
    });

    it('answers 503 at once when the mailbox is full, records nothing for it, and every command gets one reply', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob', 'Cy']);
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      const release = await holdTable(server, 'room_journal');
      // Ann's insert blocks on the lock; Bob waits in the mailbox (depth 1); Cy finds it full.
      const ann = room.players[0].send('room.answer', { question: 0, choice: 0 });
      await untilWaitingOnLock(server, 'room_journal');
      const bob = room.players[1].send('room.answer', { question: 0, choice: 0 });
      await untilMailboxDepth(server, room.code, 1);
      const cy = await room.players[2].send('room.answer', { question: 0, choice: 0 });
      expect(cy).toMatchObject({ status: 503, error: { code: 'mailbox_full' } });
      await release();
      expect((await ann).status).toBe(200);
      expect((await bob).status).toBe(200);
      // 503 is not remembered: the same id is tried afresh and now accepted.
      expect((await room.players[2].send('room.answer', { question: 0, choice: 0 }, cy.id!)).status).toBe(200);
      expect(await journaled(server, room.roomId, 'room.answer')).toHaveLength(3);
      closeAll(room);
    });

    it('passivates an idle room and brings it back on the next use with one load', async () => {
      const room = await seatRoom(server, ['Ann']);
      const rooms = server.app.get(RoomsService);
      closeAll(room);
      await waitFor(() => rooms.registry.peek(room.code) === undefined, `room ${room.code} to passivate`);
      const log = server.runtime.meter.capture();
      const back = await SeatClient.connect(server.url, room.playerTokens[0]);
      const state = await back.nextEvent('room.state');
      expect(log.stop()).toEqual(['RoomRepository.loadRooms']);
      expect(state.data.players.map((p: any) => p.name)).toEqual(['Ann']);
      back.close();
    });
  });

  describe('when the database goes away', () => {
    let server: RunningServer;
    let proxy: DelayProxy;
    beforeAll(async () => {
      const url = new URL(await createTestDatabase());
      proxy = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 0);
      await proxy.start();
      server = await startTestServer({ databaseUrl: proxy.proxiedUrl(url.toString()) });
    });
    afterAll(async () => {
      await server.stop();
      await proxy.stop();
    });

    it('answers 503, records nothing, keeps running, and recovers when it is back', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      proxy.cutAll();
      const reply = await room.players[0].send('room.answer', { question: 0, choice: 1 }, 'a-1');
      expect(reply).toMatchObject({ status: 503, error: { code: 'database_unavailable' } });
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      expect((await room.players[0].send('ping')).status).toBe(200);
      proxy.restore();
      const retry = await room.players[0].send('room.answer', { question: 0, choice: 1 }, 'a-1');
      expect(retry.status).toBe(200);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(
        (await journaled(server, room.roomId, 'room.answer'))
          .filter((c) => c.seat === room.playerIds[0])
          .map((c) => ({ choice: c.data.choice })),
      ).toEqual([{ choice: 1 }]);
      closeAll(room);
    });
  });

  describe('shutdown', () => {
    it('finishes the command in flight, then closes every socket with 1001', async () => {
      const server = await startTestServer({ commandTimeoutMs: 60_000 });
      const room = await seatRoom(server, ['Ann', 'Bob']);
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      // Hold the answer's insert so that it is surely in flight when the stop begins.
      const release = await holdTable(server, 'room_journal');
      const answer = room.players[0].send('room.answer', { question: 0, choice: 0 });
      await untilWaitingOnLock(server, 'room_journal');
      const stopped = server.stop();
      const rooms = server.app.get(RoomsService);
      await waitFor(() => !rooms.accepting, 'the server to start draining');
      await release();
      expect((await answer).status).toBe(200);
      for (const c of [room.host, ...room.players]) expect((await c.waitClosed()).code).toBe(1001);
      await stopped;
    });
  });
});
