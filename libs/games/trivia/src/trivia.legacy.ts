import { okReply } from '@app/protocol';
import { LegacyRooms, Recorded, RecordedHistory, replayRecorded, RuleContext, unchanged } from '@app/room-engine';
import { triviaRules } from './trivia.game';
import { openTrivia } from './trivia.opening';
import { beginGame, closeRecorded, decide, decideVote, release, resumed } from './trivia.rules';
import { Outcome, Phase, Question, Settings, TriviaState } from './trivia.types';

// Rooms opened before the journal: trivia kept them in its own tables (rooms, players, games,
// answers, question closes, rematch votes). A room still open at the upgrade comes back once
// from that record, through the replay below, and is journaled like any other from then on.

/**
 * A trivia room as the old tables hold it: plain data, read in one statement by the legacy
 * loader. Times are epoch milliseconds on the server's clock, as the rules used them.
 */
export interface TriviaRecord {
  readonly roomId: string;
  readonly code: string;
  readonly hostName: string;
  readonly settings: Omit<Settings, 'rematchSeconds' | 'expirySeconds'>;
  /** The room row's phase: `question` from a start, `finished` from a finish, `lobby` after an accepted rematch. */
  readonly phase: string;
  readonly closed: boolean;
  readonly gamesPlayed: number;
  readonly lastGameAt: number;
  /** Seats taken since the last game started (or seated now, without one), in join order. */
  readonly players: readonly { id: string; name: string; left?: { at: number; reason: string; commandId: string | null } }[];
  readonly playedQuestionIds: readonly number[];
  readonly lastGame?: {
    readonly id: string;
    readonly no: number;
    readonly questions: readonly Question[];
    readonly roster: readonly string[];
    readonly startedAt: number;
    readonly startCommandId: string | null;
    readonly answers: readonly { playerId: string; question: number; choice: number; at: number; commandId: string }[];
    readonly closes: readonly { index: number; at: number }[];
    readonly votes: readonly { playerId: string; vote: boolean; at: number; commandId: string | null }[];
  };
  /** Deadlines the room took late after a restart. */
  readonly lateDeadlines: readonly { due: number; at: number }[];
  /**
   * The room's deck (its questions table), if the loader reads it. The old rooms did not copy
   * their deck: without this, the room's deck is its last game's questions (none before a first
   * game), and its next games draw from those alone.
   */
  readonly deck?: readonly Question[];
}

/** One input the old record keeps, applied again by `replayTriviaEntry`. */
export type TriviaEntry =
  | { readonly kind: 'answer'; readonly playerId: string; readonly question: number; readonly choice: number; readonly commandId: string }
  | { readonly kind: 'close'; readonly index: number }
  | { readonly kind: 'departure'; readonly playerId: string; readonly reason: 'left' | 'kicked'; readonly commandId: string | null }
  | { readonly kind: 'vote'; readonly playerId: string; readonly vote: boolean; readonly commandId: string | null };

export const REMATCH_SECONDS = 30;

// Inputs recorded at the same millisecond go in the order they were decided: an answer before
// the close it caused, a departure before the close it caused. A vote goes before a departure: a
// seat that voted and left in the same millisecond did so in that order (the other refuses the
// vote). Two seats' inputs in one millisecond may have come in either order: nothing records it.
const ORDER: Record<TriviaEntry['kind'], number> = { answer: 0, vote: 1, departure: 2, close: 3 };

/**
 * Turns a record back into the rules' terms: a room in the lobby (or closed) is its seats; a room
 * whose last game is running or finished with its rematch undecided is that game from its start,
 * with every recorded answer, early close, departure and vote to replay in order.
 */
export function restoreTrivia(record: TriviaRecord, expirySeconds: number): RecordedHistory<TriviaState, TriviaEntry> {
  const settings: Settings = { ...record.settings, rematchSeconds: REMATCH_SECONDS, expirySeconds };
  const game = record.lastGame;
  const seated = record.players.filter((p) => !p.left);
  const opened = openTrivia({ ...record, settings, deck: record.deck ?? game?.questions ?? [], openedAt: record.lastGameAt });
  const lobby = (phase: Phase, players: typeof record.players): TriviaState => ({
    ...opened,
    phase,
    players: players.map((p) => ({ id: p.id, name: p.name, connected: false, score: 0, correct: 0, elapsedSum: 0 })),
    gamesPlayed: record.gamesPlayed,
    playedQuestionIds: [...new Set(record.playedQuestionIds)],
  });
  const voteAcks = (game?.votes ?? []).flatMap((v) =>
    v.commandId ? [{ actor: { role: 'player' as const, seat: v.playerId }, reply: okReply(v.commandId, {}) }] : [],
  );
  const startAck = game?.startCommandId ? [{ actor: { role: 'host' as const }, reply: okReply(game.startCommandId, {}) }] : [];
  if (record.closed || !game || (record.phase !== 'question' && record.phase !== 'finished')) {
    // The last game is not replayed, but the replies its commands got are still owed to a resend.
    const answerAcks = (game?.answers ?? []).map((a) => ({ actor: { role: 'player' as const, seat: a.playerId }, reply: okReply(a.commandId, { accepted: true }) }));
    const kickAcks = game
      ? record.players.flatMap((p) =>
          p.left?.reason === 'kicked' && p.left.commandId && p.left.at >= game.startedAt ? [{ actor: { role: 'host' as const }, reply: okReply(p.left.commandId, {}) }] : [],
        )
      : [];
    return { state: lobby(record.closed ? 'closed' : 'lobby', seated), journal: [], acknowledged: [...startAck, ...answerAcks, ...kickAcks, ...voteAcks] };
  }

  // Everyone who was seated when the game started plays it from the start, connected (a replay
  // closes a question early only where a close was recorded or every player answered).
  const before = lobby('lobby', record.players);
  const playedBefore = record.playedQuestionIds.filter((id) => !game.questions.some((q) => q.id === id));
  const atStart: TriviaState = {
    ...before,
    players: before.players.map((p) => ({ ...p, connected: true })),
    gamesPlayed: game.no - 1,
    playedQuestionIds: playedBefore,
  };
  const state = beginGame(atStart, { id: game.id, no: game.no, questions: game.questions, roster: game.roster }, game.startedAt).state;

  const journal: Recorded<TriviaEntry>[] = [
    ...game.answers.map((a): Recorded<TriviaEntry> => ({
      at: a.at,
      entry: { kind: 'answer' as const, playerId: a.playerId, question: a.question, choice: a.choice, commandId: a.commandId },
      ack: { actor: { role: 'player' as const, seat: a.playerId }, commandId: a.commandId },
    })),
    ...game.closes.map((c): Recorded<TriviaEntry> => ({ at: c.at, entry: { kind: 'close' as const, index: c.index } })),
    ...record.players.flatMap((p): Recorded<TriviaEntry>[] =>
      p.left && p.left.at >= game.startedAt && (p.left.reason === 'left' || p.left.reason === 'kicked')
        ? [
            {
              at: p.left.at,
              entry: { kind: 'departure' as const, playerId: p.id, reason: p.left.reason, commandId: p.left.commandId },
              ...(p.left.reason === 'kicked' && p.left.commandId ? { ack: { actor: { role: 'host' as const }, commandId: p.left.commandId } } : {}),
            },
          ]
        : [],
    ),
    ...game.votes.map((v): Recorded<TriviaEntry> => ({
      at: v.at,
      entry: { kind: 'vote' as const, playerId: v.playerId, vote: v.vote, commandId: v.commandId },
      ...(v.commandId ? { ack: { actor: { role: 'player' as const, seat: v.playerId }, commandId: v.commandId } } : {}),
    })),
  ].sort((a, b) => a.at - b.at || ORDER[a.entry.kind] - ORDER[b.entry.kind]);
  const lateDeadlines = record.lateDeadlines.filter((l) => l.at >= game.startedAt);
  return { state, journal, acknowledged: startAck, lateDeadlines };
}

/** Applies one input of the old record again (the old rules' own replay). */
export function replayTriviaEntry(state: TriviaState, entry: TriviaEntry, ctx: RuleContext): Outcome {
  switch (entry.kind) {
    case 'answer':
      return decide(state, { role: 'player', seat: entry.playerId }, { id: entry.commandId, type: 'room.answer', data: { question: entry.question, choice: entry.choice } }, ctx);
    case 'close':
      return closeRecorded(state, entry.index, ctx.now);
    case 'departure': {
      const seat = state.players.find((p) => p.id === entry.playerId);
      return seat ? release(state, seat, entry.reason, ctx.now) : unchanged(state);
    }
    case 'vote':
      return decideVote(state, entry.playerId, entry.vote, ctx.now);
  }
}

/** Trivia rooms from before the journal: the room as it stopped (nobody connected yet), and the replies it owes. */
export const triviaLegacy: LegacyRooms<TriviaState> = {
  restore(record, seed, { expirySeconds }) {
    const { state, replies } = replayRecorded(triviaRules, seed, restoreTrivia(record as TriviaRecord, expirySeconds), replayTriviaEntry);
    return { state: resumed(state), replies };
  },
};
