import { SeatClaims } from './seat-token';
import { SeatSockets } from './seat-sockets';

const claims = (seat: string, role: SeatClaims['role'] = 'player', roomId = 'room-1'): SeatClaims => ({
  roomId,
  code: 'K7QMPD',
  role,
  seat,
  issuedAt: 0,
  expiresAt: 1,
});

describe(SeatSockets.name, () => {
  it('keeps up to the cap per seat and pushes out the oldest past it, one for one', () => {
    const seats = new SeatSockets<string>(2);
    const ann = claims('ann');
    expect(seats.add(ann, 'a1')).toEqual([]);
    expect(seats.add(ann, 'a2')).toEqual([]);
    expect(seats.add(ann, 'a3')).toEqual(['a1']);
    expect(seats.add(ann, 'a4')).toEqual(['a2']);
    expect(seats.socketsOf(ann)).toEqual(['a3', 'a4']);
  });

  it('counts each seat apart: another player, the host of another room, a spectator', () => {
    const seats = new SeatSockets<string>(1);
    seats.add(claims('ann'), 'ann');
    expect(seats.add(claims('bob'), 'bob')).toEqual([]);
    expect(seats.add(claims('host', 'host', 'room-1'), 'host-1')).toEqual([]);
    expect(seats.add(claims('host', 'host', 'room-2'), 'host-2')).toEqual([]);
    expect(seats.add(claims('ann', 'spectator'), 'spectator')).toEqual([]);
    expect(seats.seats).toBe(5);
    expect(seats.socketsOf(claims('ann'))).toEqual(['ann']);
  });

  it('forgets a seat with its last socket, and a socket pushed out already is not removed twice', () => {
    const seats = new SeatSockets<string>(1);
    const ann = claims('ann');
    seats.add(ann, 'a1');
    const [pushedOut] = seats.add(ann, 'a2');
    seats.remove(ann, pushedOut);
    expect(seats.socketsOf(ann)).toEqual(['a2']);
    seats.remove(ann, 'a2');
    expect(seats.seats).toBe(0);
    seats.remove(ann, 'a2');
    expect(seats.seats).toBe(0);
  });

  it('stays bounded however many sockets one seat opens', () => {
    const seats = new SeatSockets<number>(3);
    const ann = claims('ann');
    let pushedOut = 0;
    for (let i = 0; i < 1000; i++) pushedOut += seats.add(ann, i).length;
    expect(pushedOut).toBe(997);
    expect(seats.socketsOf(ann)).toEqual([997, 998, 999]);
  });

  it('refuses a cap below one', () => {
    expect(() => new SeatSockets(0)).toThrow('at least one socket');
  });
});
