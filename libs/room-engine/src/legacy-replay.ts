import { okReply, ReplyFrame } from '@app/protocol';
import { Actor, GameRules, Outcome, RuleContext } from './game-rules';
import { seatKey } from './reply-memory';
import { Command } from './room-message';
import { SeatReply } from './room-store';
import { RuleDriver } from './rule-driver';

// Rooms opened before the journal existed: each game kept its own record of them. A room still
// open at the upgrade is brought back once from that record, through the game's old replay, and
// snapshotted by its first statement; from then on it is a journaled room like any other.

/** One input a game recorded in its own terms, to be applied again. */
export interface Recorded<E> {
  /** When it happened (epoch ms): deadlines due before it fire first. */
  readonly at: number;
  readonly entry: E;
  /** The acknowledged command behind it: its original reply is rebuilt from the replay. */
  readonly ack?: { readonly actor: Actor; readonly commandId: string };
}

/** A room as a game's old record has it. */
export interface RecordedHistory<S, E> {
  /** The state at the start of the recorded stretch (for example when the current game started). */
  readonly state: S;
  /** What happened since, in order. */
  readonly journal: readonly Recorded<E>[];
  /** Acknowledged commands that are not replayed, with their replies. */
  readonly acknowledged: readonly { readonly actor: Actor; readonly reply: ReplyFrame }[];
  /** Deadlines taken late (after a restart) during the recorded stretch: due when, taken when. */
  readonly lateDeadlines?: readonly { readonly due: number; readonly at: number }[];
}

/** What a game module says of its rooms from before the journal. */
export interface LegacyRooms<S> {
  /** The room's old record (the game's JSON, as the server's legacy loader reads it) and its seed: the room as it stopped, and the replies it owes. */
  restore(record: unknown, seed: number, options: { readonly expirySeconds: number }): { readonly state: S; readonly replies: readonly SeatReply[] };
}

/**
 * Replays a game's old record: each recorded input at its own moment, after the deadlines due
 * before it, and the deadlines it took late at the moments it took them.
 */
export function replayRecorded<S, C extends Command, E>(
  rules: GameRules<S, C>,
  seed: number,
  history: RecordedHistory<S, E>,
  apply: (state: S, entry: E, ctx: RuleContext) => Outcome<S>,
): { state: S; replies: SeatReply[] } {
  const driver = new RuleDriver(rules, seed);
  const replies: SeatReply[] = history.acknowledged.map(({ actor, reply }) => ({ seat: seatKey(actor), reply }));
  const late = [...(history.lateDeadlines ?? [])].sort((a, b) => a.at - b.at);
  let state = history.state;
  const takeLate = (until: number) => {
    while (late.length > 0 && late[0].at <= until) {
      const { due, at } = late.shift()!;
      state = driver.takeLate(state, due, at);
    }
  };
  for (const recorded of history.journal) {
    takeLate(recorded.at);
    state = driver.caughtUp(state, recorded.at);
    let outcome: Outcome<S>;
    try {
      outcome = apply(state, recorded.entry, driver.context(recorded.at));
    } catch {
      // The record and the rules disagree: the input is skipped, as the old replay did.
      continue;
    }
    state = outcome.state;
    if (recorded.ack) replies.push({ seat: seatKey(recorded.ack.actor), reply: okReply(recorded.ack.commandId, outcome.reply ?? {}) });
  }
  takeLate(Infinity);
  return { state, replies };
}
