import WebSocket from 'ws';
import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';

// PROTOCOL.md section 14, liveness: every quiet socket is pinged, one that answers nothing within
// the window is closed (4011) and its seat shows disconnected; one that answers is kept, however
// quiet. The windows are short here; every wait is on an event, with a hard limit far above them.

const PING_IDLE_MS = 300;
const PONG_TIMEOUT_MS = 500;
// Far above a window: only a server that never closes (or never pings) gets here.
const HARD_LIMIT_MS = 20_000;

/** Resolves with what `emitter` hands to its next `event`, or rejects after the hard limit. */
function next<T extends unknown[]>(emitter: WebSocket, event: string, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${HARD_LIMIT_MS} ms waiting for ${what}`)), HARD_LIMIT_MS);
    emitter.once(event, (...args: unknown[]) => {
      clearTimeout(timer);
      resolve(args as T);
    });
  });
}

describe('sockets prove they are alive', () => {
  let server: RunningServer;
  let api: HttpApi;
  withTestServer(
    (s) => {
      server = s;
      api = new HttpApi(s.url);
    },
    { socketPingIdleMs: PING_IDLE_MS, socketPongTimeoutMs: PONG_TIMEOUT_MS },
  );

  const silentCloses = async () => (await MetricsSnapshot.fetch(server.url)).value('game_ws_silent_closes_total');

  it('closes a socket that answers no ping with 4011, and shows its seat disconnected to the room', async () => {
    const room = await api.createRoom({ hostName: 'Host' });
    const seat = await api.join(room.code, 'Quiet');
    const host = await SeatClient.connect(server.url, room.hostToken, { timeoutMs: HARD_LIMIT_MS });
    await host.nextEvent('room.state');
    const before = await silentCloses();

    // A client whose WebSocket library does not answer pings: a peer that vanished looks the same.
    const mute = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(seat.playerToken)}`, {
      autoPong: false,
    });
    let pings = 0;
    mute.on('ping', () => pings++);
    const closed = next<[number, Buffer]>(mute, 'close', 'the silent socket to be closed');
    await host.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && e.data.connected);

    const [code, reason] = await closed;
    expect(code).toBe(4011);
    expect(reason.toString()).toBe('no answer to ping');
    expect(pings).toBeGreaterThanOrEqual(1);
    // The close went through the usual path: the room hears the seat leave, and says so.
    await host.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && !e.data.connected);
    expect(await silentCloses()).toBe(before + 1);
    // The host, which answers pings, is still there.
    expect((await host.send('ping')).status).toBe(200);
    host.close();
  });

  it('keeps a socket that answers pings, however long it stays quiet', async () => {
    const room = await api.createRoom({ hostName: 'Host' });
    const seat = await api.join(room.code, 'Patient');
    const host = await SeatClient.connect(server.url, room.hostToken, { timeoutMs: HARD_LIMIT_MS });
    await host.nextEvent('room.state');
    const player = await SeatClient.connect(server.url, seat.playerToken, { timeoutMs: HARD_LIMIT_MS });
    await player.nextEvent('room.state');
    await host.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && e.data.connected);
    const before = await silentCloses();

    // The player sends nothing; its library answers each ping. Six pings are six idle windows,
    // and together far longer than the time a ping has to be answered.
    for (let ping = 1; ping <= 6; ping++) await next(player.ws, 'ping', `ping ${ping}`);

    expect(player.ws.readyState).toBe(WebSocket.OPEN);
    expect(host.events.filter((e) => e.type === 'player.presence' && e.data.playerId === seat.playerId && !e.data.connected)).toEqual([]);
    expect(await silentCloses()).toBe(before);
    expect((await player.send('ping')).status).toBe(200);
    host.close();
    player.close();
  });
});
