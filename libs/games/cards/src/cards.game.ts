import { CloseCode } from '@app/protocol';
import { GameRules, RoomSummary, unchanged } from '@app/room-engine';
import { CARDS_COMMAND_TYPES, CARDS_EVENT_TYPES, parseCardsCommand, TableCommand } from './cards.commands';
import { viewTable } from './cards.projection';
import { decide, HUMAN_SEAT, nextDeadline, onDeadline, resumed, setPresence, shiftClocks, tableClosed } from './cards.rules';
import { CardsState } from './cards.types';

/** The card practice table on the room engine: the rules of PROTOCOL.md section 8, nothing else. */
export const cardsRules: GameRules<CardsState, TableCommand> = {
  kind: 'cards',
  commandTypes: CARDS_COMMAND_TYPES,
  eventTypes: CARDS_EVENT_TYPES,
  stateEvent: 'table.snapshot',
  parseCommand: parseCardsCommand,
  decide: (state, actor, command, ctx) => decide(state, actor, command, ctx.now),

  onSignal(state, signal, ctx) {
    switch (signal.kind) {
      case 'deadline':
        return onDeadline(state, ctx.now);
      case 'presence':
        return setPresence(state, signal.seat, signal.connected);
      case 'closed':
        return tableClosed(state, signal.reason);
      case 'resumed':
        return unchanged(resumed(state));
    }
  },

  nextDeadline,
  shiftClocks,
  // One human: its commands never wait together.
  batchKey: () => null,

  // Hands go on while the human is away (its clock checks or folds), so the table stays in
  // memory until the human is out of chips.
  mayPassivate: (state) => state.phase === 'waiting' || state.phase === 'closed',
  isOver: (state) => state.phase === 'closed',

  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'table closed' };
    if (viewer.role === 'player' && viewer.seat !== state.playerId) return { closeCode: CloseCode.seatGone, reason: 'not a seat at this table' };
    return null;
  },

  view: viewTable,

  summarize(state): RoomSummary {
    return {
      code: state.code,
      phase: state.phase,
      seats: state.seats.length,
      seatsConnected: state.seats[HUMAN_SEAT].connected ? 1 : 0,
      round: state.phase === 'playing' ? (state.hand?.number ?? null) : null,
    };
  },
};
