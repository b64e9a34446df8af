import { CommandRecord, DelayProxy, SeatClient, HttpApi, FailoverSeat, SeatResume } from '@app/bot-kit';
import { RunningServer } from '../../game-server/src/server';
import { holdTable, journaled, untilWaitingOnLock, waitFor } from '../../game-server/test/support';
import { startTestServer } from '../../../test/support/test-server';

/**
 * Tests the failover bots' seat against a real server, with its socket cut by a TCP proxy in
 * between. An answer whose reply is lost with the socket is sent again under its id on the next
 * socket, and the server records it once (PROTOCOL.md section 3: a used id gets its original
 * reply). A lock on the answer's table holds the answer in flight, so that the cut lands before its
 * reply.
 */
describe(FailoverSeat.name, () => {
  let server: RunningServer;
  let proxy: DelayProxy;
  let viaProxy: string;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    proxy = new DelayProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) }, 0);
    viaProxy = `http://127.0.0.1:${await proxy.start()}`;
  });
  afterEach(() => {
    for (const c of opened.splice(0)) c.close();
  });
  afterAll(async () => {
    await proxy.stop();
    await server.stop();
  });

  it('resends an answer whose reply was lost with its socket, and the server keeps it once', async () => {
    const api = new HttpApi(server.url);
    const room = await api.createRoom({ hostName: 'Host', questionCount: 2, secondsPerQuestion: 60, revealSeconds: 0 });
    const seat = await api.join(room.code, 'Ann');
    const host = await SeatClient.connect(server.url, room.hostToken);
    opened.push(host);
    await host.nextEvent('room.state');

    const records: CommandRecord[] = [];
    const resumes: SeatResume[] = [];
    let open: number | undefined;
    const ann = new FailoverSeat({
      baseUrl: viaProxy,
      token: seat.playerToken,
      room: room.code,
      seat: 'p1',
      commandTimeoutMs: 20_000,
      resumeTimeoutMs: 30_000,
      record: (r) => records.push(r),
      onResume: (r) => resumes.push(r),
      onEvent: (e) => {
        if (e.type === 'question.open') open = e.data.index;
        if (e.type === 'room.state' && e.data.phase === 'question') open = e.data.question.index;
      },
    });
    opened.push(ann);
    await ann.open();
    await host.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && e.data.connected);
    expect((await host.send('room.start')).status).toBe(200);
    await ann.until(() => open === 0, 'question 0 open', 10_000);

    const release = await holdTable(server, 'room_journal');
    const answered = ann.command('room.answer', { question: 0, choice: 1 }, 'p1-q0');
    await untilWaitingOnLock(server, 'room_journal');
    // While the answer is in flight, its socket goes, and the seat opens another through the proxy.
    proxy.cutAll();
    proxy.restore();
    await waitFor(() => records.filter((r) => r.type === 'ws.connect' && r.status === 101).length >= 2, 'the seat to open a second socket');
    await release();

    const outcome = await answered;
    expect(outcome).toMatchObject({ type: 'room.answer', id: 'p1-q0', status: 200, busy: 0 });
    expect(outcome.unanswered).toBeGreaterThanOrEqual(1);
    expect(outcome.sends).toBe(outcome.unanswered + 1);
    // The second socket came back after the drop. The drop is 1006, because the proxy cut the socket
    // without a close frame.
    expect(resumes).toHaveLength(2);
    expect(resumes[1].after).toBe(1006);
    // The answer is journaled once, with the choice it was sent with.
    const rows = (await journaled(server, room.roomId, 'room.answer')).filter((c) => c.commandId === 'p1-q0');
    expect(rows.map((c) => c.data.choice)).toEqual([1]);
  });
});
