import { z } from 'zod';
import { GameModule } from '@app/room-engine';
import { ticTacToe } from '@app/games/tictactoe';

/** The cell whose move sends the event that cannot be written. */
export const FAULTY_CELL = 8;

const KIND = 'faulty-board';

/**
 * Tic-tac-toe with a planted bug. It shows that a bug in one room is that room's problem alone: a
 * move to cell 8 is committed, and then publishing it throws. It is test-only code, served only by
 * a server started for tests (`apps/game-server/src/test-games.ts`), and
 * apps/game-server/test/faults.e2e-spec.ts plays it.
 */
export const faultyBoard: GameModule = {
  ...ticTacToe,
  kind: KIND,
  rules: {
    ...ticTacToe.rules,
    kind: KIND,
    // This is the bug. A move to the last cell adds a BigInt to its event, which no JSON encoder can
    // write. The move itself is sound and is committed; only telling the sockets about it throws.
    decide: (state, actor, command, ctx) => {
      const outcome = ticTacToe.rules.decide(state, actor, command, ctx);
      if (command.data.cell !== FAULTY_CELL) return outcome;
      return {
        ...outcome,
        events: outcome.events.map((e) =>
          e.type === 'ttt.moved' ? { ...e, data: { ...(e.data as object), planted: BigInt(FAULTY_CELL) } } : e,
        ),
      };
    },
  },
  codes: { ...ticTacToe.codes, kind: KIND },
  schemas: {
    summary: z
      .object({ game: z.literal(KIND) })
      .loose()
      .meta({ description: 'a tic-tac-toe board with a planted bug (tests only)' }),
  },
};
