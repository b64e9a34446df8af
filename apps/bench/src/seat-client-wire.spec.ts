import { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { SeatClient, CommandRecord } from '@app/bot-kit';

/**
 * A seat client of a compact profile asks for the profile and decodes what it receives. A frame it
 * cannot decode drops the socket, because the client's memory no longer matches the server's, and
 * the client says why. So a bench run counts it as an error instead of misreading every later frame.
 */
describe('SeatClient with a wire profile', () => {
  let wss: WebSocketServer;
  let baseUrl: string;
  const asked: (string | null)[] = [];
  let firstFrame = '';

  beforeAll(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    baseUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    wss.on('connection', (ws, req) => {
      asked.push(new URL(req.url!, baseUrl).searchParams.get('wire'));
      ws.send(firstFrame);
    });
  });
  afterAll(() => new Promise((r) => wss.close(r)));

  it('sends no wire= for JSON, and wire=<profile> for a compact one', async () => {
    asked.length = 0;
    firstFrame = JSON.stringify({ type: 'room.state', seq: 1, data: { phase: 'lobby' } });
    const json = await SeatClient.connect(baseUrl, 't', {});
    expect((await json.nextEvent('room.state')).data.phase).toBe('lobby');
    json.close();
    // compact-v1 leaves a frame's shape alone: a type and its data, which the decoder numbers.
    firstFrame = JSON.stringify({ type: 'room.state', data: { phase: 'lobby' } });
    const v1 = await SeatClient.connect(baseUrl, 't', { wire: 'compact-v1' });
    const state = await v1.nextEvent('room.state');
    expect(state).toMatchObject({ type: 'room.state', seq: 1 });
    expect(state.data.phase).toBe('lobby');
    v1.close();
    expect(asked).toEqual([null, 'compact-v1']);
  });

  it('drops the socket on a frame it cannot decode, records why, and names it to whoever waits', async () => {
    firstFrame = 'not a frame';
    const records: CommandRecord[] = [];
    const socket = await SeatClient.connect(baseUrl, 't', {
      wire: 'compact-v2',
      record: (r) => records.push(r),
      tags: { seat: 1 },
      history: false,
    });
    await expect(socket.nextEvent('room.state', () => true, 5000)).rejects.toThrow(
      /a frame could not be decoded as compact-v2: a frame is one JSON text/,
    );
    await socket.closed;
    const decode = records.filter((r) => r.type === 'ws.decode');
    expect(decode).toHaveLength(1);
    expect(decode[0]).toMatchObject({ status: null, timedOut: false, seat: 1 });
    expect(decode[0].error).toMatch(/compact-v2/);
    // A command after the drop is answered at once as not sent, with the reason.
    const late = await socket.command('ping');
    expect(late.status).toBeNull();
    expect(late.error).toMatch(/socket not open \(\d+, a frame could not be decoded/);
  });
});
