import { SeatClient, HttpApi } from '@app/bot-kit';

/**
 * A board opened over HTTP by its first seat and joined by its second. Both seats are connected and
 * past their first frame.
 */
export interface Board {
  readonly code: string;
  readonly roomId: string;
  readonly tokens: { readonly x: string; readonly o: string };
  readonly seats: { readonly x: string; readonly o: string };
  readonly x: SeatClient;
  readonly o: SeatClient;
}

export async function openBoard(baseUrl: string, moveSeconds = 30, options: { room?: boolean } = {}): Promise<Board> {
  const api = new HttpApi(baseUrl);
  const opened = await api.request('POST', '/api/rooms', { game: 'tictactoe', name: 'Xena', moveSeconds });
  if (opened.status !== 201) throw new Error(`opening a board: ${opened.status} ${JSON.stringify(opened.body)}`);
  const { code, roomId, token, seat } = opened.body;
  const joined = await api.request('POST', `/api/rooms/${code}/players`, { name: 'Otto' });
  if (joined.status !== 201) throw new Error(`joining a board: ${joined.status} ${JSON.stringify(joined.body)}`);
  const connect = async (t: string) => {
    const c = await SeatClient.connect(baseUrl, t, options.room ? { room: code } : {});
    await c.nextEvent('ttt.state');
    return c;
  };
  return {
    code,
    roomId,
    tokens: { x: token, o: joined.body.playerToken },
    seats: { x: seat, o: joined.body.playerId },
    x: await connect(token),
    o: await connect(joined.body.playerToken),
  };
}
