import { ReplyFrame, Role, RoomException } from '@app/protocol';
import { Viewer } from '../audience';
import { Actor } from '../game-rules';
import { GameModule } from '../game-module';
import { RoomActor } from '../room-actor';
import { JournalInput, JournalStep } from '../room-store';
import { seededRandom } from '../seeded-random';
import { unguessableIds } from '../unguessable-ids';
import { VirtualScheduler } from '../virtual-scheduler';
import { canonical, replayJournal } from './journaled-room';

// testGame() lets a game author check that a game made by defineGame keeps the engine's promises.
// It plays the script on the engine's own RoomActor, on virtual time, over a store that only
// records and counts what the room sends it. Nothing here does I/O.

/** One thing that happens to the room, `at` ms after it opened. Steps must go in order of time. */
export type ScriptStep =
  /** A command sent by a seat (`seat`), or by the host (no seat). */
  | { readonly at: number; readonly seat?: string; readonly role?: Role; readonly command: string; readonly data?: unknown }
  /** A change asked for over HTTP, under the rules' name for it (`join` seats a player by name). */
  | { readonly at: number; readonly propose: string; readonly args: unknown }
  /** A seat's socket opens. A seat that sends a command connects first, if it has not already. */
  | { readonly at: number; readonly connect: string }
  /** Nothing is sent: time passes, and the deadlines due meanwhile ring. */
  | { readonly at: number; readonly wait: true };

export interface GameScript<S> {
  /** The body that opens the room, as `POST /api/rooms` takes it (without `game`). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** For a game that plays from a deck: the deck the room copies. */
  readonly deck?: { readonly id: string; readonly items: readonly unknown[] };
  /** The seed of the room's random source (and of its settings). Default: 7. */
  readonly seed?: number;
  /** The seat id of whoever opens the room. Default: `host` for a game its host opens, otherwise `p1`. */
  readonly opener?: string;
  readonly steps: readonly ScriptStep[];
  /**
   * What only `seat` may see in this state, as strings (its hand, say). None of these strings may
   * appear in another seat's frames, in a spectator's, or in the public summary. A game without
   * secrets leaves this out.
   */
  readonly secretOf?: (state: S, seat: string) => readonly string[];
  /**
   * More seats whose secrets are searched for, besides those the script saw (the opener, a seat
   * that joined or sent a command). These are seats without a socket (bots), or a name for what
   * nobody may see yet (the deck not dealt).
   */
  readonly seatsOf?: (state: S) => readonly string[];
  /** The most statements an accepted command may cost the room. Default: 1. */
  readonly statementsPerCommand?: number;
}

/** What a script cost and what was checked. */
export interface GameTestReport {
  readonly game: string;
  readonly accepted: number;
  /** How many commands and proposals were refused, by error code. */
  readonly refused: Readonly<Record<string, number>>;
  /** How many statements the room sent in all, presence changes and deadlines included. */
  readonly statements: number;
  /** The most statements one accepted command of each type cost. */
  readonly statementsPerCommand: Readonly<Record<string, number>>;
  /** How many snapshots the room left at boundaries. The latest is reloaded and caught up after every step. */
  readonly snapshots: number;
  /** How many frames sent to watching sockets were searched for another seat's secret. */
  readonly framesChecked: number;
  /** The same report, as lines to print. */
  readonly text: string;
}

/** A game broke one of the engine's promises. The message names the step and what differed. */
export class GameTestFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GameTestFailure';
  }
}

const T0 = 1_700_000_000_000;
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/**
 * Plays `script` on a room of `game`. After every step it checks three things. First, the room's
 * journal, replayed from the opening and from the latest snapshot, rebuilds the room as it is,
 * replies included. Second, no seat's secret reached another seat, a spectator or the public
 * summary. Third, no accepted command cost more statements than allowed. It throws a
 * GameTestFailure on the first broken promise, and otherwise returns what it measured.
 *
 * @example
 * const report = await testGame(ticTacToe, {
 *   settings: { name: 'Xena' },
 *   steps: [
 *     { at: 0, propose: 'join', args: { playerId: 'p2', name: 'Otto' } },
 *     { at: 100, seat: 'p1', command: 'ttt.move', data: { cell: 4 } },
 *   ],
 * });
 */
export async function testGame<S>(game: GameModule<S>, script: GameScript<S>): Promise<GameTestReport> {
  const opening = game.opening;
  if (!opening) throw new GameTestFailure(`${game.kind}: the game has no opening (defineGame gives every game one)`);
  const seed = script.seed ?? 7;
  const opener = script.opener ?? (opening.openerRole === 'host' ? 'host' : 'p1');
  const ids = { roomId: `${game.kind}-test-room`, code: 'TEST01', opener };
  const start = opening.state(ids, opening.settings(script.settings, seed), {
    at: T0,
    expirySeconds: 3600,
    ...(script.deck ? { deck: script.deck } : {}),
  });

  // The store records every statement, the journal it holds, and its latest snapshot.
  const steps: JournalStep[] = [];
  const journal: JournalInput[] = [];
  let latest: { readonly state: unknown; readonly from: number } | undefined;
  const store = {
    append: async (step: JournalStep) => {
      steps.push(asJson(step));
      journal.push(...asJson(step.inputs));
      if (step.snapshot) latest = { state: asJson(step.snapshot.snapshot.state), from: journal.length };
    },
  };
  const scheduler = new VirtualScheduler();
  const clock = scheduler.clock(T0);
  const room = RoomActor.restore(
    { code: ids.code, roomId: ids.roomId, openedAt: T0 },
    game.rules,
    { state: start, journal: [], replies: [] },
    {
      store,
      clock,
      scheduler,
      observer: { command: () => undefined },
      mailboxDepth: 64,
      passivateAfterMs: 24 * 3600_000,
      commandBudgetMs: 60_000,
      seed,
      committedStatements: 0,
      onDispose: () => undefined,
      log: () => undefined,
    },
  );

  // The sockets that watch the room: a spectator from the start, and each seat from its first command.
  const secrets = (seat: string): readonly string[] => script.secretOf?.(room.snapshot, seat) ?? [];
  let framesChecked = 0;
  let where = 'the opening';
  const replies = new Map<string, ReplyFrame>();
  const remember = (reply: ReplyFrame) => void (reply.id !== null && replies.set(reply.id, reply));
  // When the room closes a socket, the socket goes away, just as the gateway lets it go once it has closed.
  const watching = new Map<string, Viewer>();
  const watch = (role: Role, seat?: string): Viewer | undefined => {
    const viewer: Viewer = {
      socketId: `${role}-${seat ?? ''}`,
      role,
      seat,
      wire: 'json',
      sendEvent: (event) => {
        if (!script.secretOf) return;
        framesChecked++;
        leakCheck(`${event.type} sent to ${seat ? `seat ${seat}` : `a ${role}`}`, event.data, seat);
      },
      sendReply: remember,
      close: () => scheduler.afterTurn(() => gone(viewer)),
    };
    if (!room.attach(viewer).ok) return undefined;
    watching.set(seat ?? role, viewer);
    if (seat) connected.set(seat, true);
    return viewer;
  };
  const gone = (viewer: Viewer) => {
    // A room that has left memory no longer hears of any socket.
    const heard = room.phase !== 'disposed';
    room.detach(viewer);
    watching.delete(viewer.seat ?? viewer.role);
    if (viewer.seat && heard) connected.set(viewer.seat, false);
  };
  /** The seats whose sockets came and went, and whether each is connected now. */
  const connected = new Map<string, boolean>();
  // The seats whose secrets are searched for: the opener, and each seat the script names.
  const seatsSeen = new Set<string>(opening.openerRole === 'player' ? [opener] : []);
  const leakCheck = (what: string, data: unknown, viewerSeat: string | undefined) => {
    const text = JSON.stringify(data) ?? '';
    for (const seat of new Set([...seatsSeen, ...(script.seatsOf?.(room.snapshot) ?? [])])) {
      if (seat === viewerSeat) continue;
      const leaked = secrets(seat).find((secret) => text.includes(JSON.stringify(secret)));
      if (leaked !== undefined) leak ??= `${game.kind}, ${where}: ${what} holds ${JSON.stringify(leaked)}, a secret of seat ${seat}`;
    }
  };
  // A leak is kept rather than thrown where it is found, because the room catches what its
  // sockets throw while it publishes.
  let leak: string | undefined;
  const noLeak = () => {
    if (leak) throw new GameTestFailure(leak);
  };
  if (!watch('spectator')) throw new GameTestFailure(`${game.kind}: the room as it opened admits no spectator`);
  noLeak();

  const refused: Record<string, number> = {};
  const perCommand: Record<string, number> = {};
  const acks = new Map<string, ReplyFrame>();
  let accepted = 0;
  let elapsed = 0;
  const allowed = script.statementsPerCommand ?? 1;

  for (const [i, step] of script.steps.entries()) {
    where = `step ${i + 1} (at ${step.at} ms)`;
    if (step.at < elapsed) throw new GameTestFailure(`${game.kind}, ${where}: the steps go in order of time`);
    await scheduler.advance(step.at - elapsed);
    elapsed = step.at;
    if ('command' in step) {
      const actor: Actor = step.seat ? { role: step.role ?? 'player', seat: step.seat } : { role: step.role ?? 'host' };
      let viewer = watching.get(actor.seat ?? actor.role);
      if (!viewer) {
        if (actor.seat) seatsSeen.add(actor.seat);
        viewer = watch(actor.role, actor.seat);
        await scheduler.flush();
      }
      // A seat the room does not admit has no socket, so its command never reaches the room.
      if (!viewer) {
        refused.not_admitted = (refused.not_admitted ?? 0) + 1;
        continue;
      }
      const before = steps.length;
      const id = `c${i + 1}`;
      room.submit(viewer, { id, type: step.command, data: step.data ?? {} }, { at: clock.now(), hr: scheduler.now() });
      await scheduler.flush();
      const reply = replies.get(id);
      if (!reply) throw new GameTestFailure(`${game.kind}, ${where}: ${step.command} got no reply once the room was idle`);
      const cost = steps.length - before;
      if (reply.status === 200) {
        accepted++;
        acks.set(id, reply);
        perCommand[step.command] = Math.max(perCommand[step.command] ?? 0, cost);
        if (cost > allowed)
          throw new GameTestFailure(`${game.kind}, ${where}: ${step.command} cost ${cost} statements, more than ${allowed}`);
      } else {
        const code = (reply as { error?: { code?: string } }).error?.code ?? String(reply.status);
        refused[code] = (refused[code] ?? 0) + 1;
        if (cost > 0)
          throw new GameTestFailure(`${game.kind}, ${where}: ${step.command} was refused (${code}) yet cost ${cost} statements`);
      }
    } else if ('connect' in step) {
      seatsSeen.add(step.connect);
      if (!watching.has(step.connect) && !watch('player', step.connect)) refused.not_admitted = (refused.not_admitted ?? 0) + 1;
      await scheduler.flush();
    } else if ('propose' in step) {
      const answered = room.propose(step.propose, step.args).then(
        () => undefined,
        (err: unknown) => err,
      );
      await scheduler.flush();
      const err = await scheduler.settled(answered);
      if (err instanceof RoomException) refused[err.code] = (refused[err.code] ?? 0) + 1;
      else if (err) throw err;
      else accepted++;
      const playerId = (step.args as { playerId?: unknown } | null)?.playerId;
      if (!err && typeof playerId === 'string') seatsSeen.add(playerId);
    }
    leakCheck('the public summary', game.publicSummary(room.snapshot), undefined);
    noLeak();
    rebuilt();
  }
  const snapshots = steps.filter((s) => s.snapshot).length;
  room.dispose();

  /**
   * The room as a replay leaves it, with each seat's socket set connected or gone as it is now.
   * The engine writes a presence change with the room's next statement, so the latest change may
   * not be journaled yet.
   */
  function withPresence(state: S): string {
    const now = clock.now();
    const ctx = { now, random: seededRandom(seed, now), id: unguessableIds(undefined, seed, now) };
    let present = state;
    for (const [seat, on] of connected) present = game.rules.onSignal(present, { kind: 'presence', seat, connected: on }, ctx).state;
    return canonical(present);
  }

  /** Checks that the journal rebuilds the room, both from the opening (replies included) and from the latest snapshot. */
  function rebuilt(): void {
    const now = clock.now();
    const live = canonical(room.snapshot);
    const fromOpening = replayJournal(game.rules, seed, asJson(start), journal, now, Infinity);
    if (fromOpening.refused.length) throw new GameTestFailure(`${game.kind}, ${where}: the replay refused ${fromOpening.refused[0]}`);
    if (withPresence(fromOpening.state) !== live)
      throw new GameTestFailure(
        `${game.kind}, ${where}: the journal replayed from the opening rebuilds another room\n live:   ${live}\n replay: ${withPresence(fromOpening.state)}`,
      );
    for (const [id, reply] of acks) {
      if (canonical(fromOpening.replies.get(id)) !== canonical(reply))
        throw new GameTestFailure(`${game.kind}, ${where}: the replay answers ${id} otherwise than the room did`);
    }
    if (!latest) return;
    const loaded = game.fromSnapshot ? game.fromSnapshot(latest.state, { deck: script.deck?.items }) : (latest.state as S);
    const fromSnapshot = replayJournal(game.rules, seed, loaded, journal.slice(latest.from), now);
    if (fromSnapshot.refused.length || withPresence(fromSnapshot.state) !== live) {
      throw new GameTestFailure(
        `${game.kind}, ${where}: the latest snapshot and the journal after it rebuild another room\n live:   ${live}\n reload: ${withPresence(fromSnapshot.state)}`,
      );
    }
  }

  const refusedCount = Object.values(refused).reduce((a, b) => a + b, 0);
  const text = [
    `${game.kind}: ${script.steps.length} steps, ${accepted} accepted, ${refusedCount} refused${
      refusedCount
        ? ` (${Object.entries(refused)
            .map(([c, n]) => `${c} ${n}`)
            .join(', ')})`
        : ''
    }`,
    `statements: ${steps.length} in all; per accepted command at most: ${
      Object.entries(perCommand)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ') || 'none'
    }`,
    `rebuilt from the journal after every step; ${snapshots} snapshot(s), the latest reloaded each time; ${script.secretOf ? `${framesChecked} frames searched for another seat's secret` : 'no secrets declared'}`,
  ].join('\n');
  return { game: game.kind, accepted, refused, statements: steps.length, statementsPerCommand: perCommand, snapshots, framesChecked, text };
}
