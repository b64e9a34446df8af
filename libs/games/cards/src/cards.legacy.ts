import { okReply } from '@app/protocol';
import { Actor, chain, LegacyRooms, Recorded, RecordedHistory, replayRecorded, RuleContext, unchanged } from '@app/room-engine';
import { TableCommand } from './cards.commands';
import { cardsRules } from './cards.game';
import { decide, fromCheckpoint, HUMAN_SEAT, nextDeadline, onDeadline, resumed } from './cards.rules';
import { ActionKind, CardsState, HandCheckpoint, Outcome, TableSettings } from './cards.types';

// Tables opened before the journal: the cards kept them in their own tables (the checkpoint of
// the last hand, the human's actions and rebuys since). A table still open at the upgrade comes
// back once from that record, through the replay below, and is journaled from then on.

/**
 * A card table as the old tables hold it: plain data, read in one statement by the legacy
 * loader. The bots' actions are not in it: the seed and the human's actions determine them.
 * Times are epoch milliseconds on the server's clock, as the rules used them.
 */
export interface CardsRecord {
  readonly tableId: string;
  readonly code: string;
  readonly playerId: string;
  readonly settings: TableSettings;
  readonly closed: boolean;
  /** The last hand's end, or the table's opening (`openingCheckpoint`). */
  readonly checkpoint: HandCheckpoint;
  /** The human's actions in the hand after the checkpoint (older ones may be dropped). */
  readonly actions: readonly { hand: number; seq: number; action: ActionKind; amount: number | null; at: number; commandId: string }[];
  /** The human's rebuys after the checkpoint (older ones may be dropped). */
  readonly rebuys: readonly { afterHand: number; stack: number; at: number; commandId: string }[];
  /** Every acknowledged command with its 200 data: command-id replay survives a restart. */
  readonly acknowledged: readonly { commandId: string; reply: unknown }[];
  /** Deadlines the table took late after a restart. */
  readonly lateDeadlines: readonly { due: number; at: number }[];
}

/** One recorded input a replay applies again. */
export type CardsEntry =
  | { readonly kind: 'act'; readonly hand: number; readonly seq: number; readonly action: ActionKind; readonly amount: number | null; readonly commandId: string }
  | { readonly kind: 'rebuy'; readonly afterHand: number; readonly commandId: string };

// A rebuy comes before the actions of the hand it lets the human play.
const ORDER: Record<CardsEntry['kind'], number> = { rebuy: 0, act: 1 };

/**
 * Turns a record back into the rules' terms: the table as its last checkpoint left it, then the
 * human's rebuys and actions since, each at its moment; the deadlines between them (the bots,
 * the clocks, the next deal) fire again on the same schedule and decide the same.
 */
export function restoreCards(record: CardsRecord): RecordedHistory<CardsState, CardsEntry> {
  const ids = { tableId: record.tableId, code: record.code, playerId: record.playerId };
  const base = fromCheckpoint(ids, record.settings, record.checkpoint);
  const human: Actor = { role: 'player', seat: record.playerId };
  const journal: Recorded<CardsEntry>[] = record.closed
    ? []
    : [
        ...record.rebuys
          .filter((r) => r.afterHand === record.checkpoint.number)
          .map((r): Recorded<CardsEntry> => ({ at: r.at, entry: { kind: 'rebuy', afterHand: r.afterHand, commandId: r.commandId }, ack: { actor: human, commandId: r.commandId } })),
        ...record.actions
          .filter((a) => a.hand > record.checkpoint.number)
          .map((a): Recorded<CardsEntry> => ({
            at: a.at,
            entry: { kind: 'act', hand: a.hand, seq: a.seq, action: a.action, amount: a.amount, commandId: a.commandId },
            ack: { actor: human, commandId: a.commandId },
          })),
      ].sort((a, b) => a.at - b.at || ORDER[a.entry.kind] - ORDER[b.entry.kind]);
  const replayed = new Set(journal.map((j) => j.entry.commandId));
  return {
    state: record.closed ? { ...base, phase: 'closed' } : base,
    journal,
    acknowledged: record.acknowledged.filter((a) => !replayed.has(a.commandId)).map((a) => ({ actor: human, reply: okReply(a.commandId, a.reply) })),
    lateDeadlines: record.lateDeadlines.filter((l) => l.at >= record.checkpoint.at),
  };
}

/** How many deadlines one recorded input may have to catch up on (see `replayCardsEntry`). */
const MAX_CATCH_UP = 4;

/**
 * Applies a recorded input again. The engine fires the deadlines due strictly before the input;
 * one due at its very millisecond (the bot's action that gave the human the turn) fires here
 * first, on its own schedule. An input that no longer lands where it was taken is refused.
 */
export function replayCardsEntry(state: CardsState, entry: CardsEntry, ctx: RuleContext): Outcome {
  const now = ctx.now;
  const ready = (s: CardsState) =>
    entry.kind === 'act' ? s.phase === 'playing' && s.hand?.toAct === HUMAN_SEAT : s.phase === 'between' || s.phase === 'waiting';
  let caught: Outcome = unchanged(state);
  for (let i = 0; i < MAX_CATCH_UP && !ready(caught.state); i++) {
    const due = nextDeadline(caught.state);
    if (due === undefined || due > now) break;
    caught = chain(caught, onDeadline(caught.state, due));
  }
  const s = caught.state;
  const actor: Actor = { role: 'player', seat: s.playerId };
  if (entry.kind === 'act') {
    if (s.hand?.number !== entry.hand || s.hand.actions !== entry.seq) {
      throw new Error(`recorded action ${entry.hand}/${entry.seq} does not land in hand ${s.hand?.number}/${s.hand?.actions}`);
    }
    const command: TableCommand = { id: entry.commandId, type: 'table.act', data: { action: entry.action, ...(entry.amount !== null ? { amount: entry.amount } : {}) } };
    return chain(caught, decide(s, actor, command, now));
  }
  if (s.handsPlayed !== entry.afterHand) throw new Error(`recorded rebuy after hand ${entry.afterHand} does not land after hand ${s.handsPlayed}`);
  return chain(caught, decide(s, actor, { id: entry.commandId, type: 'table.rebuy', data: {} }, now));
}

/** Card tables from before the journal: the table as it stopped (nobody connected yet), and the replies it owes. */
export const cardsLegacy: LegacyRooms<CardsState> = {
  restore(record, seed) {
    const { state, replies } = replayRecorded(cardsRules, seed, restoreCards(record as CardsRecord), replayCardsEntry);
    return { state: resumed(state), replies };
  },
};
