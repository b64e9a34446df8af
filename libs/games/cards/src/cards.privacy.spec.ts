import { prng, TableSim, wildHuman } from '../test/cards.fixtures';
import { privacyLeaks, TrueHand, truthFromFrames } from './cards.privacy';

const DEAL = new Map<number, TrueHand>([
  [
    1,
    {
      number: 1,
      hole: { 0: ['As', 'Kd'], 1: ['2c', '2d'], 2: ['7h', '8h'] },
      board: ['Qs', 'Jd', 'Tc', '3h', '4s'],
      folded: [2],
      showdown: true,
    },
  ],
]);
const started = { type: 'hand.started', data: { number: 1, button: 0, blinds: [] } };

describe(privacyLeaks.name, () => {
  it('passes the owner its own cards, the dealt board and the live hands shown at the showdown', () => {
    const frames = [
      started,
      { type: 'hole_cards.dealt', data: { seat: 0, cards: ['As', 'Kd'] } },
      { type: 'hole_cards.dealt', data: { seat: 1, cards: null } },
      { type: 'street.dealt', data: { street: 'flop', board: ['Qs', 'Jd', 'Tc'] } },
      {
        type: 'table.snapshot',
        data: { hand: { number: 1, street: 'flop', board: ['Qs', 'Jd', 'Tc'] }, yourCards: ['As', 'Kd'], seats: [{ name: 'As' }] },
      },
      {
        type: 'hand.finished',
        data: {
          number: 1,
          shown: [
            { seat: 1, cards: ['2c', '2d'], rank: 'Pair' },
            { seat: 0, cards: ['As', 'Kd'], rank: 'Straight' },
          ],
        },
      },
    ];
    expect(privacyLeaks(frames, DEAL, 0)).toEqual([]);
  });

  it.each([
    ['another seat’s hole card', { type: 'hole_cards.dealt', data: { seat: 1, cards: ['2c', '2d'] } }, 2],
    ['another seat’s cards as the viewer’s own', { type: 'table.snapshot', data: { yourCards: ['2c', '2d'] } }, 2],
    ['a board card not dealt yet', { type: 'street.dealt', data: { street: 'flop', board: ['Qs', 'Jd', 'Tc', '3h'] } }, 4],
    ['a card in a field that carries none', { type: 'action.applied', data: { seat: 0, note: '3h' } }, 1],
    [
      'a folded hand at the showdown',
      { type: 'hand.finished', data: { number: 1, shown: [{ seat: 2, cards: ['7h', '8h'], rank: 'High' }] } },
      2,
    ],
  ])('finds %s', (_what, frame, leaks) => {
    expect(privacyLeaks([started, frame], DEAL, 0)).toHaveLength(leaks);
  });

  it('gives a spectator no hole card at all before the showdown', () => {
    expect(privacyLeaks([started, { type: 'hole_cards.dealt', data: { seat: 0, cards: ['As', 'Kd'] } }], DEAL, undefined)).toHaveLength(2);
  });

  it('counts a fold seen twice once: a table moved to another instance takes its unwritten bots’ actions again', () => {
    const seats = (folded: number[]) => [0, 1, 2, 3].map((seat) => ({ seat, folded: folded.includes(seat) }));
    const fold = (seat: number) => ({ type: 'action.applied', data: { seat, action: 'fold' } });
    const frames = [
      { type: 'hand.started', data: { number: 1, button: 0 } },
      fold(3),
      // The viewer's new socket is on the new owner. The fold was not written there, so it is taken again.
      { type: 'table.snapshot', data: { hand: { number: 1, button: 0 }, seats: seats([]) } },
      fold(3),
      fold(1),
      { type: 'hand.finished', data: { number: 1 } },
    ];
    const truth = truthFromFrames(frames, 42, 4).get(1)!;
    expect(truth.folded).toEqual([3, 1]);
    // Two hands are still live, so the showdown shows them.
    expect(truth.showdown).toBe(true);
    // A snapshot that says a seat has folded counts the fold, even though nobody saw that fold.
    expect(
      truthFromFrames([frames[0], { type: 'table.snapshot', data: { hand: { number: 1, button: 0 }, seats: seats([2]) } }], 42, 4).get(1)!
        .folded,
    ).toEqual([2]);
  });

  it('finds nothing in the frames of many simulated hands, for the human and for a spectator', () => {
    let hands = 0;
    for (const seed of [1, 2, 3, 4]) {
      const sim = new TableSim({ seed, bots: seed + 1 }, wildHuman, prng(seed * 101));
      // Both viewers reconnect now and then, so their snapshots are checked too.
      sim.runHands(60, 20_000, (_step, s) => s.steps.length % 7 === 0 && s.reconnect());
      hands += sim.state.handsPlayed;
      expect(sim.frames.get('human')!.some((f) => f.type === 'hole_cards.dealt' && Array.isArray((f.data as any).cards))).toBe(true);
      expect(sim.frames.get('spectator')!.some((f) => f.type === 'hand.finished' && (f.data as any).shown.length > 0)).toBe(true);
      expect(sim.leaks('human')).toEqual([]);
      expect(sim.leaks('spectator')).toEqual([]);
    }
    expect(hands).toBe(240);
  });
});
