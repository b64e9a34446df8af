import { SeatClient, GameEvent, HttpApi, Reply } from '@app/bot-kit';
import { WIRE_PROFILES, WireProfile } from '@app/protocol';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { decodeLines } from '../../wire/src/decode';

const PROFILES: readonly WireProfile[] = WIRE_PROFILES;
type Sockets = Record<WireProfile, SeatClient>;

/** The string values anywhere in a frame (keys aside). */
function leaves(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** The events a socket got, decoded; its first room.state made comparable across sockets opened moments apart. */
function events(client: SeatClient): GameEvent[] {
  return client.decoded
    .filter((f): f is GameEvent => f.type !== 'reply')
    .map((e) => (e.type === 'room.state' ? { ...e, data: { ...e.data, wire: 'compared', ...(e.seq === 1 ? { serverTime: 0 } : {}) } } : e));
}

/** Bytes a socket received from frame `from` on, up to and with its rematch.open (the game's play). */
function playBytes(c: SeatClient, from: number): number {
  const end = c.decoded.findIndex((f) => f.type === 'rematch.open');
  return c.frames.slice(from, end + 1).reduce((n, f) => n + Buffer.byteLength(f), 0);
}

describe('wire profiles over real sockets', () => {
  let server: RunningServer;
  let api: HttpApi;

  // One socket per profile per viewer: the seat's cap must hold them all.
  withTestServer(
    (s) => {
      server = s;
      api = new HttpApi(s.url);
    },
    { socketsPerSeat: PROFILES.length },
  );

  it('a whole trivia game: each profile decodes to the JSON stream, frame for frame, for a host, a spectator and four players', async () => {
    const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 });
    const seats = [];
    for (const name of ['Ann', 'Bob', 'Cy', 'Di']) seats.push(await api.join(room.code, name));
    const { spectatorToken } = await api.spectate(room.code);
    const open = async (token: string): Promise<Sockets> => {
      const sockets = {} as Sockets;
      // One at a time, each past its first frame, so every socket of a viewer sees the same room.
      for (const wire of PROFILES) {
        sockets[wire] = await SeatClient.connect(server.url, token, { wire });
        await sockets[wire].nextEvent('room.state');
      }
      return sockets;
    };
    const host = await open(room.hostToken);
    const spectator = await open(spectatorToken);
    const players: Sockets[] = [];
    const holders: SeatClient[] = [];
    for (const seat of seats) {
      // A first socket makes the seat present; the compared ones open after its presence went out.
      holders.push(await SeatClient.connect(server.url, seat.playerToken));
      await host.json.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && e.data.connected);
      players.push(await open(seat.playerToken));
    }

    // The room is quiet here: every socket has had all it will get before the game.
    const everyone = [host, spectator, ...players].flatMap((s) => PROFILES.map((w) => s[w]));
    await Promise.all(everyone.map((c) => c.send('ping')));
    const playFrom = new Map(everyone.map((c) => [c, c.frames.length]));
    expect((await host.json.send('room.start')).status).toBe(200);
    for (let q = 0; q < 3; q++) {
      const question = await host.json.nextEvent('question.open', (e) => e.data.index === q);
      // Each profile answers 4 of the 12 answers, so each carries its share of replies.
      const replies = await Promise.all(
        players.map((p, i) =>
          p[PROFILES[(i + q) % PROFILES.length]].send('room.answer', { question: q, choice: (i + q) % question.data.choices.length }),
        ),
      );
      expect(replies.map((r) => [r.status, r.data])).toEqual(replies.map(() => [200, { accepted: true }]));
      await host.json.nextEvent('question.closed', (e) => e.data.index === q);
    }
    await host.json.nextEvent('rematch.open');
    expect((await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status).toBe(
      204,
    );
    const viewers = { host, spectator, ...Object.fromEntries(players.map((p, i) => [`player ${i}`, p])) } as Record<string, Sockets>;
    for (const sockets of Object.values(viewers)) for (const c of Object.values(sockets)) expect((await c.waitClosed()).code).toBe(4004);
    for (const h of holders) await h.waitClosed();

    for (const [who, sockets] of Object.entries(viewers)) {
      const json = events(sockets.json);
      expect(json.map((e) => e.type)).toContain('question.closed');
      expect(json[json.length - 1].type).toBe('room.closed');
      for (const wire of PROFILES) {
        const client = sockets[wire];
        expect([who, wire, client.decoded.find((f) => f.type === 'room.state')?.data.wire]).toEqual([who, wire, wire]);
        expect([who, wire, events(client)]).toEqual([who, wire, json]);
        // `npm run wire -- decode` reads the same recording, one frame per line.
        expect(decodeLines(wire, client.frames.join('\n')).map((l) => JSON.parse(l))).toEqual(client.decoded);
        // Replies keep id and status on the wire, in every profile.
        for (const [i, f] of client.decoded.entries()) {
          if (f.type === 'reply') expect(JSON.parse(client.frames[i])).toMatchObject({ id: (f as Reply).id, status: (f as Reply).status });
        }
        // Nothing on this socket that the viewer's JSON stream (and its own replies) does not carry.
        const allowed = leaves([sockets.json.decoded, client.decoded.filter((f) => f.type === 'reply')]);
        // The state frame names the socket's own profile where the JSON socket's says "json".
        for (const word of [...new Set(json.map((e) => e.type)), 'reply', wire]) allowed.add(word);
        const extra = [...leaves(client.frames.map((f) => JSON.parse(f)))].filter((s) => !allowed.has(s));
        expect([who, wire, extra]).toEqual([who, wire, []]);
      }
    }

    // Bytes per answer on the sockets of a 4-seat room (host and players), each profile against JSON in this same run.
    const answers = 12;
    const perAnswer = Object.fromEntries(
      PROFILES.map((wire) => [
        wire,
        Math.round([host, ...players].reduce((n, s) => n + playBytes(s[wire], playFrom.get(s[wire])!), 0) / answers),
      ]),
    ) as Record<WireProfile, number>;
    process.stdout.write(`bytes per answer, 4-seat room: ${JSON.stringify(perAnswer)}\n`);
    expect(perAnswer['compact-v1']).toBeLessThan(perAnswer.json);
    expect(perAnswer['compact-v2'] * 2).toBeLessThanOrEqual(perAnswer.json);
    // compact-v3 is compact-v2 and its own rules, each of which only takes bytes away.
    expect(perAnswer['compact-v3']).toBeLessThan(perAnswer['compact-v2']);
  });
});
