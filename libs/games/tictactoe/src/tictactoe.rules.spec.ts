import fc from 'fast-check';
import { RoomException } from '@app/protocol';
import { ticTacToe } from './tictactoe.game';
import { openBoard, TicTacToeState } from './tictactoe.rules';

const rules = ticTacToe.rules;

const T0 = 1_700_000_000_000;
const ctx = (now: number) => ({ now, random: () => 0.5, id: () => 'an-id' });
const X = { role: 'player' as const, seat: 'x' };
const O = { role: 'player' as const, seat: 'o' };

function playing(): TicTacToeState {
  const open = openBoard('TTT001', { id: 'x', name: 'Xena' }, 30);
  return rules.proposals!.join(open, { playerId: 'o', name: 'Otto' }, ctx(T0)).state;
}
const move = (s: TicTacToeState, who: typeof X, cell: number, at = T0 + 1000) =>
  rules.decide(s, who, { id: `m${cell}`, type: 'ttt.move', data: { cell } }, ctx(at));
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as RoomException).code;
  }
  return 'accepted';
};

describe('tic-tac-toe', () => {
  it('starts when the second seat joins, X to move on a clock', () => {
    const s = playing();
    expect(s).toMatchObject({ phase: 'playing', turn: 'X', moveBy: T0 + 30_000 });
    expect(code(() => rules.proposals!.join(s, { playerId: 'z', name: 'Zed' }, ctx(T0)))).toBe('board_full');
  });

  it('takes turns, refuses a taken cell and a move out of turn', () => {
    let s = move(playing(), X, 4).state;
    expect(s.board[4]).toBe('X');
    expect(code(() => move(s, X, 0))).toBe('not_your_turn');
    expect(code(() => move(s, O, 4))).toBe('cell_taken');
    s = move(s, O, 0).state;
    expect(s.turn).toBe('X');
  });

  it('finishes on a line with a report, and is a boundary', () => {
    let s = playing();
    for (const [who, cell] of [
      [X, 0],
      [O, 3],
      [X, 1],
      [O, 4],
    ] as const)
      s = move(s, who, cell).state;
    const won = move(s, X, 2);
    expect(won.state).toMatchObject({ phase: 'finished', winner: 'X' });
    expect(won.boundary).toBe(true);
    expect(won.finished).toMatchObject({ no: 1, summary: { winner: 'X', moves: [0, 3, 1, 4, 2] } });
    expect(rules.nextDeadline(won.state)).toBeUndefined();
  });

  it('gives the game to the other seat when the seat to move runs out of time', () => {
    const s = move(playing(), X, 4, T0 + 1000).state;
    expect(rules.nextDeadline(s)).toBe(T0 + 1000 + 30_000);
    const late = rules.onSignal(s, { kind: 'deadline' }, ctx(T0 + 31_000));
    expect(late.state).toMatchObject({ phase: 'finished', winner: 'X' });
    expect(late.finished?.summary).toMatchObject({ winner: 'X' });
  });

  it('gives the seat to move its whole clock again after a hold, and moves nothing on a board not in play', () => {
    const s = move(playing(), X, 4, T0 + 1000).state;
    const held = rules.shiftClocks!(s, 5000);
    expect(rules.nextDeadline(held)).toBe(T0 + 1000 + 30_000 + 5000);
    expect(rules.onSignal(held, { kind: 'deadline' }, ctx(T0 + 31_000)).state).toBe(held);
    expect(code(() => move(held, O, 0, T0 + 33_000))).toBe('accepted');
    const waiting = openBoard('TTT002', { id: 'x', name: 'Xena' }, 30);
    expect(rules.shiftClocks!(waiting, 5000)).toBe(waiting);
  });

  it('never has two winners, always alternates, and decides the same on its own JSON (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 20 }), (cells) => {
        let s = playing();
        let t = T0;
        for (const cell of cells) {
          const who = s.turn === 'X' ? X : O;
          t += 100;
          let next;
          try {
            next = move(s, who, cell, t);
          } catch (err) {
            if (!(err instanceof RoomException)) throw err;
            continue;
          }
          expect(move(JSON.parse(JSON.stringify(s)), who, cell, t)).toEqual(next);
          s = next.state;
          const marks = s.board.filter((c) => c !== '');
          expect(Math.abs(marks.filter((c) => c === 'X').length - marks.filter((c) => c === 'O').length)).toBeLessThanOrEqual(1);
          if (s.phase === 'finished') break;
        }
      }),
    );
  });
});
