import fc from 'fast-check';
import { ScriptStep, testGame } from '@app/room-engine/testing';
import { ticTacToe } from './tictactoe.game';

// These tests play tic-tac-toe through testGame(). They check that the journal rebuilds every board
// and that a move costs one statement.

const joined: ScriptStep = { at: 0, propose: 'join', args: { playerId: 'p2', name: 'Otto' } };
const move = (at: number, seat: string, cell: number): ScriptStep => ({ at, seat, command: 'ttt.move', data: { cell } });

describe('tic-tac-toe through testGame', () => {
  it('plays a won game: each accepted move is one statement, and the finished board is a snapshot that reloads', async () => {
    const report = await testGame(ticTacToe, {
      settings: { name: 'Xena', moveSeconds: 30 },
      steps: [
        joined,
        move(100, 'p1', 0),
        move(200, 'p2', 3),
        move(300, 'p2', 4),
        move(400, 'p1', 1),
        move(500, 'p2', 4),
        move(600, 'p1', 2),
      ],
    });
    expect(report).toMatchObject({ accepted: 6, refused: { not_your_turn: 1 }, statementsPerCommand: { 'ttt.move': 1 }, snapshots: 1 });
  });

  it('rebuilds a game lost on time, the deadline taken again by the replay', async () => {
    const report = await testGame(ticTacToe, {
      settings: { name: 'Xena', moveSeconds: 1 },
      steps: [joined, move(100, 'p1', 4), { at: 5000, wait: true }, move(5100, 'p2', 0)],
    });
    expect(report).toMatchObject({ accepted: 2, refused: { not_playing: 1 }, snapshots: 1 });
  });

  it('keeps its promises whatever the seats play, and whenever (property)', async () => {
    const play = fc.array(
      fc.record({ after: fc.integer({ min: 0, max: 1500 }), seat: fc.constantFrom('p1', 'p2'), cell: fc.integer({ min: 0, max: 8 }) }),
      { maxLength: 14 },
    );
    await fc.assert(
      fc.asyncProperty(play, async (moves) => {
        let at = 0;
        const steps = [joined, ...moves.map((m) => move((at += m.after), m.seat, m.cell))];
        const report = await testGame(ticTacToe, { settings: { name: 'Xena', moveSeconds: 1 }, steps });
        expect(report.accepted).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 40 },
    );
  });
});
