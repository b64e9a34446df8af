// Plays a game's rules the way the engine drives them, and keeps the journal the engine would keep
// (RuleDriver, JournalInput). The games' property tests and testGame() use it. The journal holds
// the commands the rules accepted, proposals, signals that changed the state, deadlines taken late
// after a restart, and holds of the clocks while writes failed. Deadlines taken on time are not
// journaled, because a replay's catch-up takes them again.
// The replay here mirrors RuleDriver.replay: each input at its moment, after the deadlines due
// before it. Every rule call is also made on the state's JSON (a snapshot is the state as JSON),
// and any difference is kept in `divergences`.
import { okReply, ReplyFrame, RoomException } from '@app/protocol';
import { Actor, GameRules, Outcome, RuleContext, Signal } from '../game-rules';
import { JournalInput } from '../room-store';
import { seededRandom } from '../seeded-random';
import { unguessableIds } from '../unguessable-ids';

type Command = { readonly id: string; readonly type: string };

/** JSON with the keys of every object sorted, so two values that are equal as JSON give the same string. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** The same as RuleDriver's MAX_CATCH_UP: the most deadlines a replay takes before one input. */
export const MAX_CATCH_UP = 1000;

export class JournaledRoom<S, C extends Command> {
  state: S;
  now: number;
  readonly journal: JournalInput[] = [];
  /** The reply each accepted command got, by command id. */
  readonly acks = new Map<string, ReplyFrame>();
  /**
   * The snapshot taken at the latest boundary (before the first boundary, the room as it opened):
   * the state as it reads back from JSON, and the index in `journal` where the inputs after the
   * snapshot start.
   */
  snapshot: { readonly state: S; readonly from: number };
  /** Each place where a rule decided otherwise on the state's JSON, or a restart found another room than the one that stopped. */
  readonly divergences: string[] = [];

  constructor(
    readonly rules: GameRules<S, C>,
    readonly seed: number,
    readonly opening: S,
    at: number,
    /** Hears of every outcome the room took, in order (which carries the events its viewers got). */
    private readonly observe: (outcome: Outcome<S>) => void = () => undefined,
  ) {
    this.state = opening;
    this.now = at;
    this.snapshot = { state: asJson(opening), from: 0 };
  }

  ctx(at: number): RuleContext {
    return { now: at, random: seededRandom(this.seed, at), id: unguessableIds(undefined, this.seed, at) };
  }

  /**
   * Moves the clock to `t`. The deadlines due before it fire on time, each at its moment. Unlike a
   * replay's catch-up, a timer has no bound on how many it fires.
   */
  advanceTo(t: number): void {
    for (let i = 0; i < 1_000_000; i++) {
      const due = this.rules.nextDeadline(this.state);
      if (due === undefined || due >= t) break;
      const outcome = this.twin((s) => this.rules.onSignal(s, { kind: 'deadline' }, this.ctx(due)));
      if (outcome.state === this.state) break;
      this.apply(outcome);
    }
    this.now = Math.max(this.now, t);
  }

  /** A command arriving at `at`. It is decided, journaled and acknowledged, or refused, and then nothing changes. */
  command(actor: Actor, command: C, at = this.now): Outcome<S> | RoomException {
    this.advanceTo(at);
    const decided = this.attempt(() => this.twin((s) => this.rules.decide(s, actor, command, this.ctx(at))));
    if (decided instanceof RoomException) return decided;
    this.journal.push({ kind: 'command', at, actor, commandId: command.id, body: asJson(command) });
    this.acks.set(command.id, okReply(command.id, decided.reply ?? {}));
    this.apply(decided);
    return decided;
  }

  /** A named proposal (an HTTP join) at `at`. */
  proposal(name: string, args: unknown, at = this.now): Outcome<S> | RoomException {
    this.advanceTo(at);
    const rule = this.rules.proposals?.[name];
    if (!rule) throw new Error(`no proposal named ${name}`);
    const decided = this.attempt(() => this.twin((s) => rule(s, args, this.ctx(at))));
    if (decided instanceof RoomException) return decided;
    this.journal.push({ kind: 'proposal', at, body: { name, args: asJson(args) } });
    this.apply(decided);
    return decided;
  }

  /** A signal at `at`. It is journaled when it changed the room. */
  signal(signal: Signal, at = this.now): Outcome<S> {
    this.advanceTo(at);
    const outcome = this.twin((s) => this.rules.onSignal(s, signal, this.ctx(at)));
    if (outcome.state !== this.state) this.journal.push({ kind: 'signal', at, body: signal });
    this.apply(outcome);
    return outcome;
  }

  /**
   * The room's writes fail from `from` until a write succeeds `ms` later, and the clocks are held
   * as the engine holds them (clock-hold.ts). The deadlines due before `from` are taken on time,
   * none rings while the clocks are held, and the write that succeeds records the hold. Every
   * clock moves on by `ms`.
   */
  hold(from: number, ms: number): void {
    this.advanceTo(from);
    const moved = this.twin((s) => ({
      state: this.rules.shiftClocks && ms > 0 ? this.rules.shiftClocks(s, ms) : s,
      events: [],
      effects: [],
    }));
    this.journal.push({ kind: 'clock_held', at: from, body: { ms } });
    this.apply(moved);
    this.now = Math.max(this.now, from + ms);
  }

  /**
   * The process dies at `killedAt` and the room comes back at `at`, rebuilt from its latest
   * snapshot and the journal after it, as the engine does it (RoomActor's resume). First the room
   * learns that nobody is connected; that is journaled if it changed the room, and nothing is
   * caught up before it. Then the deadlines that passed meanwhile are taken late, at `at`.
   */
  restart(killedAt: number, at: number): void {
    this.advanceTo(killedAt);
    const back = this.replayed('snapshot', killedAt);
    if (canonical(back.state) !== canonical(this.state)) this.divergences.push(`restart at ${killedAt}: the journal rebuilds another room`);
    this.state = back.state;
    this.now = Math.max(this.now, at);
    const resumed = this.twin((s) => this.rules.onSignal(s, { kind: 'resumed' }, this.ctx(at)));
    if (resumed.state !== this.state) this.journal.push({ kind: 'signal', at, body: { kind: 'resumed' } });
    this.apply(resumed);
    for (let i = 0; i < MAX_CATCH_UP; i++) {
      const due = this.rules.nextDeadline(this.state);
      if (due === undefined || due >= at) break;
      const outcome = this.twin((s) => this.rules.onSignal(s, { kind: 'deadline' }, this.ctx(at)));
      if (outcome.state === this.state) break;
      this.journal.push({ kind: 'late_deadline', at, body: { due } });
      this.apply(outcome);
    }
  }

  /**
   * The room as its journal rebuilds it, caught up to `until`. The replay starts either from the
   * latest snapshot, as the engine does, or from the opening, across every boundary since. From
   * the opening, any number of deadlines may lie between two inputs (many hands of bots while the
   * human is away), more than a replay from the latest snapshot ever takes, so that replay's
   * catch-up is not bounded.
   */
  replayed(from: 'opening' | 'snapshot', until = this.now): Replayed<S> {
    return from === 'opening'
      ? replayJournal(this.rules, this.seed, asJson(this.opening), this.journal, until, Infinity)
      : replayJournal(this.rules, this.seed, asJson(this.snapshot.state), this.journal.slice(this.snapshot.from), until);
  }

  private apply(outcome: Outcome<S>): void {
    this.state = outcome.state;
    this.observe(outcome);
    if (outcome.boundary) this.snapshot = { state: asJson(outcome.state), from: this.journal.length };
  }

  private attempt(decide: () => Outcome<S>): Outcome<S> | RoomException {
    try {
      return decide();
    } catch (err) {
      if (err instanceof RoomException) return err;
      throw err;
    }
  }

  /** Runs `rule` on the state and on the state's JSON. Both must come to the same result, refusals included. */
  private twin(rule: (state: S) => Outcome<S>): Outcome<S> {
    const outcome = (state: S) => {
      try {
        return { outcome: rule(state) };
      } catch (err) {
        if (err instanceof RoomException) return { refused: err };
        throw err;
      }
    };
    const live = outcome(this.state);
    const json = outcome(asJson(this.state));
    // Compare also what the rules say of the state they left: its next deadline, and what a viewer sees.
    const said = (r: typeof live) =>
      r.refused
        ? canonical({ code: r.refused.code, message: r.refused.message })
        : canonical({
            ...r.outcome,
            next: this.rules.nextDeadline(r.outcome!.state),
            view: this.rules.view(r.outcome!.state, { role: 'spectator' }, this.now),
            summary: this.rules.summarize(r.outcome!.state),
          });
    if (said(live) !== said(json)) this.divergences.push(`at ${this.now}: ${said(live)} but on its JSON ${said(json)}`);
    if (live.refused) throw live.refused;
    return live.outcome!;
  }
}

export interface Replayed<S> {
  readonly state: S;
  /** The replies the replay rebuilt, by command id. */
  readonly replies: Map<string, ReplyFrame>;
  /** Inputs the rules refused on replay (there should be none). */
  readonly refused: string[];
}

/** Mirrors RuleDriver.replay (libs/room-engine/src/rule-driver.ts), then catches up to `until`. */
export function replayJournal<S, C extends Command>(
  rules: GameRules<S, C>,
  seed: number,
  start: S,
  journal: readonly JournalInput[],
  until: number,
  maxCatchUp = MAX_CATCH_UP,
): Replayed<S> {
  const ctx = (now: number): RuleContext => ({ now, random: seededRandom(seed, now), id: unguessableIds(undefined, seed, now) });
  const caughtUp = (state: S, at: number): S => {
    for (let i = 0; i < maxCatchUp; i++) {
      const due = rules.nextDeadline(state);
      if (due === undefined || due >= at) break;
      const next = rules.onSignal(state, { kind: 'deadline' }, ctx(due)).state;
      if (next === state) break;
      state = next;
    }
    return state;
  };
  const replies = new Map<string, ReplyFrame>();
  const refused: string[] = [];
  let state = start;
  for (const input of journal) {
    if (input.kind === 'clock_held') {
      state = caughtUp(state, input.at);
      if (rules.shiftClocks && input.body.ms > 0) state = rules.shiftClocks(state, input.body.ms);
      continue;
    }
    if (input.kind === 'late_deadline') {
      state = caughtUp(state, input.body.due);
      if (rules.nextDeadline(state) === input.body.due) state = rules.onSignal(state, { kind: 'deadline' }, ctx(input.at)).state;
      continue;
    }
    // A room coming back takes what passed meanwhile as late, so nothing is caught up before it.
    if (!(input.kind === 'signal' && input.body.kind === 'resumed')) state = caughtUp(state, input.at);
    try {
      if (input.kind === 'command') {
        const outcome = rules.decide(state, input.actor, input.body as C, ctx(input.at));
        replies.set(input.commandId, okReply(input.commandId, outcome.reply ?? {}));
        state = outcome.state;
      } else if (input.kind === 'proposal') {
        state = rules.proposals![input.body.name](state, input.body.args, ctx(input.at)).state;
      } else {
        state = rules.onSignal(state, input.body, ctx(input.at)).state;
      }
    } catch (err) {
      refused.push(`${input.kind} at ${input.at}: ${String(err)}`);
    }
  }
  return { state: caughtUp(state, until), replies, refused };
}
