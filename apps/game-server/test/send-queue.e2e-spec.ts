import { Socket } from 'node:net';
import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { waitFor } from './support';

const QUEUE_FRAMES = 64;

describe('bounded send queues', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer(
    (s) => {
      server = s;
      api = new HttpApi(s.url);
    },
    { sendQueueBytes: 64 * 1024, sendQueueFrames: QUEUE_FRAMES },
  );

  it('evicts a spectator that stops reading with 4009 after the bound, counts it, and keeps a client that reads', async () => {
    const room = await api.createRoom({ hostName: 'Host' });
    const seat = await api.join(room.code, 'Ann');
    const host = await SeatClient.connect(server.url, room.hostToken);
    await host.nextEvent('room.state');
    const stalled = await SeatClient.connect(server.url, (await api.spectate(room.code)).spectatorToken, { wire: 'compact-v2' });
    await stalled.nextEvent('room.state');
    // The client stops reading: what the server sends now piles up in the kernel's buffers and its own.
    const tcp = (stalled.ws as unknown as { _socket: Socket })._socket;
    tcp.pause();
    const before = await MetricsSnapshot.fetch(server.url);
    const evictions = async () =>
      (await MetricsSnapshot.fetch(server.url)).value('game_ws_evictions_total', { reason: 'send_queue_frames' });

    // A player's socket opening and closing: two presence frames to everyone each time.
    let cycles = 0;
    const cycle = async () => {
      const phone = await SeatClient.connect(server.url, seat.playerToken);
      await phone.nextEvent('room.state');
      await host.nextEvent('player.presence', (e) => e.data.connected);
      phone.close();
      await host.nextEvent('player.presence', (e) => !e.data.connected);
      cycles++;
    };
    while ((await evictions()) === before.value('game_ws_evictions_total', { reason: 'send_queue_frames' })) {
      if (cycles > 10 * QUEUE_FRAMES) throw new Error('the stalled spectator was never evicted');
      await cycle();
    }
    // The spectator was held to the bound; the host, which reads, took more than the bound and stays.
    while (cycles * 2 <= 2 * QUEUE_FRAMES) await cycle();
    expect(host.ws.readyState).toBe(host.ws.OPEN);
    const during = await MetricsSnapshot.fetch(server.url);
    expect(during.has('game_ws_send_queue_bytes')).toBe(true);
    expect(during.has('game_ws_send_queue_frames')).toBe(true);

    tcp.resume();
    expect((await stalled.waitClosed()).code).toBe(4009);
    // It got its first frame and at most the bound after it.
    expect(stalled.frames.length).toBeLessThanOrEqual(1 + QUEUE_FRAMES);
    expect(stalled.frames.length).toBeGreaterThan(QUEUE_FRAMES / 2);
    expect((await MetricsSnapshot.fetch(server.url)).value('game_ws_evictions_total') - before.value('game_ws_evictions_total')).toBe(1);
    host.close();
    await host.waitClosed();
    // Once every socket is gone, nothing counts as queued.
    await waitFor(
      async () => (await MetricsSnapshot.fetch(server.url)).value('game_ws_send_queue_frames') === 0,
      'the send queues to empty',
    );
    expect((await MetricsSnapshot.fetch(server.url)).value('game_ws_send_queue_bytes')).toBe(0);
  });
});
