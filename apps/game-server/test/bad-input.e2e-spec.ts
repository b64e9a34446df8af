import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { SeatClient, HttpApi, UpgradeRefused } from '@app/bot-kit';
import { SeatTokens } from '@app/gateway';
import { RunningServer } from '../src/server';
import { TEST_TOKEN_SECRET, withTestServer } from '../../../test/support/test-server';
import { closeAll, journaled, SeatedRoom, seatRoom } from './support';

/**
 * Every bad input of PROTOCOL.md gets its status or close code, and changes nothing: no
 * statement reaches PostgreSQL, no row is written, and the socket (where it stays open) still
 * works afterwards.
 */
describe('bad input', () => {
  let server: RunningServer;

  withTestServer((s) => (server = s));

  /** Runs `action` and asserts that it sent nothing to PostgreSQL. */
  async function changesNothing(action: () => Promise<void>): Promise<void> {
    const log = server.runtime.meter.capture();
    await action();
    expect(log.stop()).toEqual([]);
  }

  async function stillWorks(client: SeatClient): Promise<void> {
    expect((await client.send('ping')).status).toBe(200);
  }

  describe('frames', () => {
    let room: SeatedRoom;
    beforeEach(async () => {
      room = await seatRoom(server, ['Ann']);
    });
    afterEach(() => closeAll(room));

    it('answers malformed JSON with id null and 400', async () => {
      const p = room.players[0];
      await changesNothing(async () => {
        const reply = await p.sendRaw('{"id": "x", "type": ');
        expect(reply).toMatchObject({ id: null, status: 400, error: { code: 'bad_frame' } });
      });
      await stillWorks(p);
    });

    it('answers a frame without a usable id with id null and 400', async () => {
      const p = room.players[0];
      await changesNothing(async () => {
        expect(await p.sendRaw(JSON.stringify({ type: 'ping', data: {} }))).toMatchObject({
          id: null,
          status: 400,
          error: { code: 'bad_id' },
        });
        expect(await p.sendRaw(JSON.stringify({ id: 'x'.repeat(65), type: 'ping' }))).toMatchObject({ id: null, status: 400 });
        expect(await p.sendRaw(JSON.stringify([1, 2]))).toMatchObject({ id: null, status: 400 });
      });
      await stillWorks(p);
    });

    it('answers an unknown command type with 404', async () => {
      await changesNothing(async () => {
        expect(await room.players[0].send('room.dance', {})).toMatchObject({ status: 404, error: { code: 'unknown_type' } });
      });
    });

    it('answers a command from the wrong role with 403', async () => {
      const spectator = await SeatClient.connect(server.url, (await new HttpApi(server.url).spectate(room.code)).spectatorToken);
      await changesNothing(async () => {
        expect(await room.players[0].send('room.start')).toMatchObject({ status: 403, error: { code: 'forbidden' } });
        expect(await room.host.send('room.answer', { question: 0, choice: 0 })).toMatchObject({ status: 403 });
        expect(await spectator.send('room.answer', { question: 0, choice: 0 })).toMatchObject({ status: 403 });
        expect(await spectator.send('room.rematch', { vote: true })).toMatchObject({ status: 403 });
        expect(await room.players[0].send('room.kick', { playerId: room.playerIds[0] })).toMatchObject({ status: 403 });
      });
      expect((await spectator.send('ping')).status).toBe(200);
      spectator.close();
    });

    it('answers malformed data with 400 naming the field', async () => {
      await changesNothing(async () => {
        const reply = await room.players[0].send('room.answer', { question: 'one', choice: 0 });
        expect(reply).toMatchObject({ status: 400, error: { code: 'bad_data' } });
        expect(reply.error!.message).toContain('question');
        expect((await room.players[0].send('room.rematch', { vote: 'yes' })).error!.message).toContain('vote');
      });
    });

    it('answers data that is not an object in the documented order: 404 unknown type, then 403 role, then 400', async () => {
      const p = room.players[0];
      await changesNothing(async () => {
        expect(await p.sendRaw(JSON.stringify({ id: 'd-1', type: 'room.dance', data: 'x' }), 'd-1')).toMatchObject({
          status: 404,
          error: { code: 'unknown_type' },
        });
        expect(await p.sendRaw(JSON.stringify({ id: 'd-2', type: 'room.start', data: [1, 2] }), 'd-2')).toMatchObject({
          status: 403,
          error: { code: 'forbidden' },
        });
        expect(await p.sendRaw(JSON.stringify({ id: 'd-3', type: 'room.answer', data: null }), 'd-3')).toMatchObject({
          status: 400,
          error: { code: 'bad_data' },
        });
        expect(await p.sendRaw(JSON.stringify({ id: 'd-4', type: 'ping', data: 7 }), 'd-4')).toMatchObject({ status: 200 });
      });
    });

    it('answers a command in the wrong phase with 409', async () => {
      await changesNothing(async () => {
        expect(await room.players[0].send('room.answer', { question: 0, choice: 0 })).toMatchObject({
          status: 409,
          error: { code: 'question_closed' },
        });
        expect(await room.players[0].send('room.rematch', { vote: true })).toMatchObject({ status: 409, error: { code: 'wrong_phase' } });
      });
    });

    it('closes the socket with 1009 for a frame over 16 KiB', async () => {
      const p = room.players[0];
      p.ws.send(JSON.stringify({ id: 'big', type: 'ping', data: { pad: 'x'.repeat(17 * 1024) } }));
      expect((await p.waitClosed()).code).toBe(1009);
    });

    it('closes the socket with 1003 for a binary frame', async () => {
      const p = room.players[0];
      p.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await p.waitClosed()).code).toBe(1003);
    });

    it('closes the socket with 4008 after too many bad frames', async () => {
      const p = room.players[0];
      for (let i = 0; i < 25; i++) p.ws.send('not json');
      expect((await p.waitClosed()).code).toBe(4008);
    });

    it('answers 429 to a socket that sends too fast, and executes nothing it refused', async () => {
      const p = room.players[0];
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => p.send('ping', {}, `fast-${i}`)));
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    });
  });

  describe('answers', () => {
    it('refuses a choice outside the question with 400 and records nothing', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      await room.host.send('room.start');
      const open = await room.players[0].nextEvent('question.open');
      await changesNothing(async () => {
        const reply = await room.players[0].send('room.answer', { question: 0, choice: open.data.choices.length });
        expect(reply).toMatchObject({ status: 400, error: { code: 'choice_out_of_range' } });
      });
      expect(await journaled(server, room.roomId, 'room.answer')).toEqual([]);
      expect((await room.players[0].send('room.answer', { question: 0, choice: 0 })).status).toBe(200);
      closeAll(room);
    });

    it('refuses a second answer with 409 and keeps the first', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      await room.host.send('room.start');
      await room.players[0].nextEvent('question.open');
      expect((await room.players[0].send('room.answer', { question: 0, choice: 1 })).status).toBe(200);
      await changesNothing(async () => {
        expect(await room.players[0].send('room.answer', { question: 0, choice: 2 })).toMatchObject({
          status: 409,
          error: { code: 'already_answered' },
        });
      });
      expect(
        (await journaled(server, room.roomId, 'room.answer'))
          .filter((c) => c.seat === room.playerIds[0])
          .map((c) => ({ choice: c.data.choice })),
      ).toEqual([{ choice: 1 }]);
      closeAll(room);
    });

    it('gives a replayed command id its original reply and executes it once', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      await room.host.send('room.start');
      await room.players[0].nextEvent('question.open');
      const first = await room.players[0].send('room.answer', { question: 0, choice: 1 }, 'answer-1');
      await changesNothing(async () => {
        // Same id, other data: the original reply, not a 409.
        const again = await room.players[0].send('room.answer', { question: 0, choice: 3 }, 'answer-1');
        expect(again).toEqual(first);
      });
      // After a reconnect the seat still remembers.
      room.players[0].close();
      await room.players[0].closed;
      const back = await SeatClient.connect(server.url, room.playerTokens[0]);
      expect(await back.send('room.answer', { question: 0, choice: 3 }, 'answer-1')).toEqual(first);
      expect(
        (await journaled(server, room.roomId, 'room.answer'))
          .filter((c) => c.seat === room.playerIds[0])
          .map((c) => ({ choice: c.data.choice })),
      ).toEqual([{ choice: 1 }]);
      expect(room.host.events.filter((e) => e.type === 'question.progress')).toHaveLength(1);
      back.close();
      closeAll(room);
    });
  });

  describe('tokens and origins', () => {
    let room: SeatedRoom;
    beforeAll(async () => {
      room = await seatRoom(server, ['Ann']);
    });
    afterAll(() => closeAll(room));

    async function refused(token: string, origin?: string): Promise<number> {
      try {
        const c = await SeatClient.connect(server.url, token, { origin });
        c.close();
        return 101;
      } catch (err) {
        return err instanceof UpgradeRefused ? err.status : -1;
      }
    }

    it('refuses a missing, malformed, forged or altered token with 401 at the upgrade', async () => {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
      const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(401);
      expect(await refused('nonsense')).toBe(401);
      const forged = new SeatTokens('another-secret-entirely-0123456789abcdef').issue({
        roomId: room.roomId,
        code: room.code,
        role: 'host',
        seat: 'host',
      });
      expect(await refused(forged)).toBe(401);
      const [body, sig] = room.playerTokens[0].split('.');
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
      const hostClaims = Buffer.from(JSON.stringify({ ...claims, role: 'host', seat: 'host' })).toString('base64url');
      expect(await refused(`${hostClaims}.${sig}`)).toBe(401);
      // Issue 8: a player promoted themself by re-signing with compose's old public fallback secret.
      const resigned = createHmac('sha256', 'change-me-to-a-long-random-secret').update(hostClaims).digest('base64url');
      expect(await refused(`${hostClaims}.${resigned}`)).toBe(401);
    });

    it('refuses an Origin that is not allowed with 403 and accepts an allowed one', async () => {
      expect(await refused(room.playerTokens[0], 'http://evil.example')).toBe(403);
      expect(await refused(room.playerTokens[0], 'http://allowed.example')).toBe(101);
    });

    it("accepts the server's own origin (its pages) even when it is not in the allowed list", async () => {
      expect(await refused(room.playerTokens[0], server.url)).toBe(101);
      expect(await refused(room.playerTokens[0], server.url.replace('127.0.0.1', 'evil.example'))).toBe(403);
    });

    it('accepts and then closes an expired token with 4001', async () => {
      const tokens = new SeatTokens(TEST_TOKEN_SECRET, 60);
      const expired = tokens.issue({ roomId: room.roomId, code: room.code, role: 'player', seat: room.playerIds[0] }, Date.now() - 120_000);
      const c = await SeatClient.connect(server.url, expired);
      expect((await c.waitClosed()).code).toBe(4001);
    });

    it('closes a seat that left with 4003 and a closed room with 4004', async () => {
      const gone = await seatRoom(server, ['Ann', 'Bob']);
      await gone.players[0].send('room.leave');
      expect((await gone.players[0].waitClosed()).code).toBe(4003);
      const again = await SeatClient.connect(server.url, gone.playerTokens[0]);
      expect((await again.waitClosed()).code).toBe(4003);
      const res = await fetch(`${server.url}/api/rooms/${gone.code}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${gone.hostToken}` },
      });
      expect(res.status).toBe(204);
      expect((await gone.players[1].waitClosed()).code).toBe(4004);
      const late = await SeatClient.connect(server.url, gone.playerTokens[1]);
      expect((await late.waitClosed()).code).toBe(4004);
      closeAll(gone);
    });
  });
});
