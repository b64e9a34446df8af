import { ReplyFrame, Role } from '@app/protocol';
import { tally, TallyState } from '../test/tally.game';
import { Viewer, Viewers } from './audience';
import { Outcome } from './game-rules';
import { RoomPublisher } from './room-publisher';

const T0 = 1_700_000_000_000;
const confirmed: TallyState = { code: 'ABCDEF', seats: ['p1', 'p2'], total: 7, closed: false };

function harness() {
  const log: string[] = [];
  const viewers = new Viewers();
  let closed = 0;
  const publisher = new RoomPublisher<TallyState>({
    viewers,
    rules: tally,
    clock: { now: () => T0 },
    confirmed: () => confirmed,
    close: () => (closed++, log.push('room closed')),
  });
  const join = (role: Role, seat?: string) => {
    const v: Viewer = {
      socketId: `${role}-${seat ?? ''}`,
      role,
      seat,
      wire: 'json',
      sendEvent: ({ type, data }) => log.push(`${v.socketId} ${type} ${JSON.stringify(data)}`),
      sendReply: (r: ReplyFrame) => log.push(`${v.socketId} reply ${r.id}`),
      close: (code) => log.push(`${v.socketId} close ${code}`),
    };
    viewers.add(v);
    return v;
  };
  return { publisher, viewers, log, join, closes: () => closed };
}

const outcome = (o: Partial<Outcome<TallyState>>): Outcome<TallyState> => ({ state: confirmed, events: [], effects: [], ...o });

describe(RoomPublisher.name, () => {
  it('sends the events to their audiences, then fresh views of the confirmed room where asked, then the effects', () => {
    const h = harness();
    h.join('player', 'p1');
    h.join('host');
    h.publisher.publish([
      outcome({ events: [{ type: 'tally.secret', data: {}, audience: { to: 'seats', seats: ['p1'] } }] }),
      outcome({ events: [{ type: 'tally.added', data: { n: 1 } }], resync: true, effects: [{ kind: 'close', reason: 'host' }] }),
    ]);
    expect(h.log).toEqual([
      'player-p1 tally.secret {}',
      'player-p1 tally.added {"n":1}',
      'host- tally.added {"n":1}',
      'player-p1 tally.state {"total":7,"wire":"json"}',
      'host- tally.state {"total":7,"wire":"json"}',
      'player-p1 close 4004',
      'host- close 4004',
      'room closed',
    ]);
    expect(h.closes()).toBe(1);
  });

  it("closes a released seat's sockets with 4003, and no one else's", () => {
    const h = harness();
    h.join('player', 'p1');
    h.join('player', 'p1');
    h.join('player', 'p2');
    h.publisher.publish([outcome({ effects: [{ kind: 'release', seats: ['p1'] }] })]);
    expect(h.log).toEqual(['player-p1 close 4003', 'player-p1 close 4003']);
    expect(h.viewers.size).toBe(1);
    expect(h.closes()).toBe(0);
  });

  it('sends a view with the wire profile the socket got', () => {
    const h = harness();
    const v = h.join('spectator');
    h.publisher.sendView({ ...v, wire: 'compact-v2', sendEvent: (e) => h.log.push(`${e.type} ${JSON.stringify(e.data)}`) }, T0);
    expect(h.log).toEqual(['tally.state {"total":7,"wire":"compact-v2"}']);
  });
});
