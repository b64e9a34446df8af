import { DelayProxy, HttpApi } from '@app/bot-kit';
import { closeAll, journaled, seatRoom, serverBehindProxy } from './support';

// PostgreSQL goes away in the two ways production sees: refused (the link is cut, connections
// are refused) and silent (the link stays up and nothing answers: a dead NAT, a failover in
// progress). Either way every command and request is answered (503 where PostgreSQL is needed,
// at once where it is not), nothing that got 503 is ever recorded, and the room goes on after.
// A command whose statement was written into the silent link is answered once the server can
// read whether it was recorded, after the link is back: late, and true (section 14). How long the
// answers take is the bench's to measure (`npm run bench -- outage`).

describe.each([
  ['refused', (p: DelayProxy) => p.cutAll()],
  ['silent', (p: DelayProxy) => p.blackHole()],
])('when PostgreSQL is %s', (_kind, outage) => {
  const env = serverBehindProxy();

  it('answers every command and request, records nothing it refused, and plays on when it is back', async () => {
    const { server, proxy, direct } = env;
    // Replies settled after the outage come later than the test client's usual wait.
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], {}, { timeoutMs: 30_000 });
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');
    const [ann, bob, cy] = room.players;
    outage(proxy);

    // Bob's answer waits behind Ann's statement; both are answered, neither is recorded.
    const annAnswer = ann.send('room.answer', { question: 0, choice: 1 }, 'ann-1');
    const bobAnswer = bob.send('room.answer', { question: 0, choice: 2 }, 'bob-1');
    // A command that needs no database is not held behind one that does.
    const start = room.host.send('room.start', {}, 'start-again');
    expect(await start).toMatchObject({ status: 409, error: { code: 'wrong_phase' } });
    const refused = { status: 503, error: { code: 'database_unavailable' } };
    // Refused links fail before anything is written: the answers are refused at once.
    if (_kind === 'refused') expect([await annAnswer, await bobAnswer]).toMatchObject([refused, refused]);
    expect((await ann.send('ping')).status).toBe(200);

    const api = new HttpApi(server.url);
    expect((await fetch(`${server.url}/health`)).status).toBe(503);
    expect(await api.request('POST', '/api/rooms', { hostName: 'Dee' })).toMatchObject({
      status: 503,
      body: { code: 'database_unavailable' },
    });
    // The live room answers what it knows without PostgreSQL.
    expect(await api.request('GET', `/api/rooms/${room.code}`)).toMatchObject({ status: 200, body: { phase: 'question' } });

    proxy.restore();
    // Into a silent link, Ann's statement was written and never arrived: once PostgreSQL can be
    // asked, it says so, and both answers get their (late, true) 503.
    expect([await annAnswer, await bobAnswer]).toMatchObject([refused, refused]);
    // 503 is not remembered: Ann's same id is tried afresh and now accepted; Cy answers too.
    expect(await ann.send('room.answer', { question: 0, choice: 1 }, 'ann-1')).toMatchObject({ status: 200 });
    expect(await cy.send('room.answer', { question: 0, choice: 0 }, 'cy-1')).toMatchObject({ status: 200 });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await api.request('POST', '/api/rooms', { hostName: 'Dee' })).status).toBe(201);

    // Bob was told 503 and did not retry: his answer is not there, now or after more traffic.
    const answers = async () =>
      (await journaled(direct, room.roomId, 'room.answer')).map((c) => [c.seat, c.data.choice]).sort((a, b) => a[1] - b[1]);
    expect(await answers()).toEqual([
      [room.playerIds[2], 0],
      [room.playerIds[0], 1],
    ]);
    expect(await bob.send('room.answer', { question: 0, choice: 2 }, 'bob-1')).toMatchObject({ status: 200 });
    await room.host.nextEvent('question.closed');
    expect(await answers()).toEqual([
      [room.playerIds[2], 0],
      [room.playerIds[0], 1],
      [room.playerIds[1], 2],
    ]);
    closeAll(room);
  });
});
