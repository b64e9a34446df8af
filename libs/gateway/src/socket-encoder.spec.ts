import { decodeFrames, WIRE_PROFILES, WireProfile } from '@app/protocol';
import { outboundEvent } from '@app/room-engine';
import { ROUNDS_TABLE as WIRE_CODES } from '../../../packages/client/test/rounds.codes';
import { SocketEncoder } from './socket-encoder';

const ids = ['b7d0c6a2-1e4f-4a3b-9c8d-7e6f5a4b3c2d', '2f9e8d7c-6b5a-4c3d-8e1f-0a9b8c7d6e5f'];
const players = ids.map((id, i) => ({ id, name: `P${i}`, connected: true, score: 0 }));
const state = (you: Record<string, unknown>) => ({
  code: 'K7QMPD',
  phase: 'lobby',
  you,
  host: { name: 'H' },
  players,
  settings: {},
  serverTime: 1,
});

describe(SocketEncoder.name, () => {
  it('encodes a broadcast once per profile for sockets that were sent the same room, whoever they are', () => {
    const viewers: { wire: WireProfile; encoder: SocketEncoder; frames: string[] }[] = [];
    for (const wire of WIRE_PROFILES) {
      for (const you of [{ role: 'player', playerId: ids[1] }, { role: 'player', playerId: ids[0] }, { role: 'spectator' }]) {
        const encoder = new SocketEncoder(wire, WIRE_CODES);
        viewers.push({ wire, encoder, frames: [encoder.event(outboundEvent('rounds.state', state(you)), 1)!] });
      }
    }
    const closed = outboundEvent('round.closed', {
      index: 0,
      outcome: 1,
      counts: [1, 1],
      scores: ids.map((playerId) => ({ playerId, points: 0, total: 0 })),
    });
    for (const v of viewers) v.frames.push(v.encoder.event(closed, 2)!);
    // There is one string per profile: JSON's data, and one encoding for each compact profile.
    expect(closed.encodings.size).toBe(WIRE_PROFILES.length);
    for (const v of viewers)
      expect(decodeFrames(v.wire, v.frames, WIRE_CODES)[1]).toEqual({ type: 'round.closed', seq: 2, data: closed.data });
  });

  it('does not share an encoding between sockets whose memories differ', () => {
    const early = new SocketEncoder('compact-v1', WIRE_CODES);
    const late = new SocketEncoder('compact-v1', WIRE_CODES);
    early.event(outboundEvent('rounds.state', state({ role: 'host' })), 1);
    late.event(outboundEvent('rounds.state', state({ role: 'host' })), 1);
    early.event(outboundEvent('round.progress', { index: 0, moved: 1, of: 2 }), 2);
    const progress = outboundEvent('round.progress', { index: 0, moved: 2, of: 2 });
    expect(JSON.parse(early.event(progress, 3)!)).toEqual({ type: 'round.progress', data: { moved: 2 } });
    expect(JSON.parse(late.event(progress, 2)!)).toEqual({ type: 'round.progress', data: { index: 0, moved: 2, of: 2 } });
  });

  it('shares an encoding between compact-v2 sockets that number the ids of this frame alike, whatever else they were sent', () => {
    const [a, b, c] = [0, 1, 2].map(() => new SocketEncoder('compact-v2', WIRE_CODES));
    for (const e of [a, b, c]) e.event(outboundEvent('rounds.state', state({ role: 'host' })), 1);
    // Only b learns one more id. A frame without that id still reads the same for both.
    b.event(outboundEvent('round.noted', { playerId: 'c9a1d0e2-0000-4000-8000-000000000003' }), 2);
    const closed = outboundEvent('round.closed', {
      index: 1,
      outcome: 0,
      counts: [2],
      scores: ids.map((playerId) => ({ playerId, points: 0, total: 0 })),
    });
    const fromA = a.event(closed, 2)!;
    expect(b.event(closed, 3)).toBe(fromA);
    expect(closed.encodings.size).toBe(1);
    // This frame carries the id that only b was sent, so b sends its number while a and c send it in full.
    const late = outboundEvent('round.closed', {
      index: 2,
      outcome: 0,
      counts: [1],
      scores: [{ playerId: 'c9a1d0e2-0000-4000-8000-000000000003', points: 1, total: 1 }],
    });
    expect(b.event(late, 4)).not.toContain('c9a1d0e2');
    expect(c.event(outboundEvent('round.closed', closed.data), 2)).toBe(fromA);
    expect(a.event(late, 3)).toContain('c9a1d0e2');
    expect(late.encodings.size).toBe(2);
  });

  it('drops a broadcast state frame only for the socket whose last state frame it repeats', () => {
    const seen = new SocketEncoder('compact-v2', WIRE_CODES);
    const other = new SocketEncoder('compact-v2', WIRE_CODES);
    const same = state({ role: 'host' });
    seen.event(outboundEvent('rounds.state', same), 1);
    const first = other.event(outboundEvent('rounds.state', { ...same, phase: 'round' }), 1)!;
    const again = outboundEvent('rounds.state', same);
    expect(seen.event(again, 2)).toBeNull();
    expect(decodeFrames('compact-v2', [first, other.event(again, 2)!], WIRE_CODES)[1]).toEqual({
      type: 'rounds.state',
      seq: 2,
      data: same,
    });
  });
});
