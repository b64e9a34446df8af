import { CloseCode } from '@app/protocol';
import { Committed, GameRules, Outcome, RoomSummary, unchanged } from '@app/room-engine';
import { parseTriviaCommand, RoomCommand, TRIVIA_COMMAND_TYPES, TRIVIA_EVENT_TYPES } from './trivia.commands';
import { viewRoom } from './trivia.projection';
import { TriviaEntry } from './trivia.restore';
import {
  closeRecorded,
  decide,
  decideVote,
  gameStarted,
  nextDeadline,
  onDeadline,
  release,
  resumed,
  roomClosed,
  setPresence,
} from './trivia.rules';
import { mergeWrites } from './trivia.writes';
import { Question, TriviaState, Write } from './trivia.types';

/** What the store hands back for a committed write: only a started game carries data. */
export type TriviaResult = { kind: 'startGame'; started: { gameId: string; questions: Question[] } | null } | { kind: 'done' };

/** Trivia on the room engine: the rules of PROTOCOL.md section 3, nothing else. */
export const triviaRules: GameRules<TriviaState, RoomCommand, Write, TriviaResult, TriviaEntry> = {
  kind: 'trivia',
  commandTypes: TRIVIA_COMMAND_TYPES,
  eventTypes: TRIVIA_EVENT_TYPES,
  stateEvent: 'room.state',
  parseCommand: parseTriviaCommand,
  decide: (state, actor, command, ctx) => decide(state, actor, command, ctx.now),

  onSignal(state, signal, ctx): Outcome<TriviaState, Write> {
    switch (signal.kind) {
      case 'deadline':
        return onDeadline(state, ctx.now);
      case 'presence':
        return setPresence(state, signal.seat, signal.connected, ctx.now);
      case 'closed':
        return roomClosed(state, signal.reason);
      case 'resumed':
        return unchanged(resumed(state));
    }
  },

  // The questions and the game's id come from the database: nothing follows a start until it commits.
  needsResult: (write) => write.kind === 'startGame',

  afterCommit(state, committed: readonly Committed<Write, TriviaResult>[]) {
    const start = committed.find((c) => c.write.kind === 'startGame');
    if (!start || start.write.kind !== 'startGame' || start.result.kind !== 'startGame') return undefined;
    // A start refused by the database (the room was closed under us) changes nothing; the close follows by NOTIFY.
    if (!start.result.started) return undefined;
    const w = start.write;
    return gameStarted(state, { ...start.result.started, gameNo: w.gameNo, roster: w.roster }, w.startedAt);
  },

  replay(state, entry, ctx) {
    switch (entry.kind) {
      case 'answer':
        return decide(state, { role: 'player', seat: entry.playerId }, { id: entry.commandId, type: 'room.answer', data: entry }, ctx.now);
      case 'close':
        return closeRecorded(state, entry.index, ctx.now);
      case 'departure': {
        const seat = state.players.find((p) => p.id === entry.playerId);
        return seat ? release(state, seat, entry.reason, entry.commandId, ctx.now) : unchanged(state);
      }
      case 'vote':
        return decideVote(state, entry.playerId, entry.commandId, entry.vote, ctx.now);
    }
  },

  nextDeadline,
  batchKey: (command) => (command.type === 'room.answer' ? 'answer' : command.type === 'room.rematch' ? 'vote' : null),
  mergeWrites,

  mayPassivate(state) {
    const rematchOpen = state.phase === 'finished' && state.rematch && !state.rematch.decided;
    return state.phase !== 'question' && state.phase !== 'reveal' && !rematchOpen;
  },
  isOver: (state) => state.phase === 'closed',

  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'room closed' };
    if (viewer.role === 'player' && !state.players.some((p) => p.id === viewer.seat)) {
      return { closeCode: CloseCode.seatGone, reason: 'seat left or was kicked' };
    }
    return null;
  },

  view: viewRoom,

  summarize(state): RoomSummary {
    const game = state.game;
    return {
      code: state.code,
      phase: state.phase,
      seats: state.players.length,
      seatsConnected: state.players.filter((p) => p.connected).length,
      round: game && (state.phase === 'question' || state.phase === 'reveal') ? game.index : null,
    };
  },
};
