import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AdmitResult, ConnectResult, RoomDirectory, SEAT_TOKENS, SeatClaims, SeatTokens } from '@app/gateway';
import { inputOf, JournalStore, LostLease, RoomChange, RoomRepository, StoredRoom } from '@app/persistence';
import { DeckRepository } from '../decks/deck.repository';
import { SharedDecks } from '../decks/shared-decks';
import { badData, CloseCode, gameChoice, readBody, retryAfterFor, RoomErrorCode, RoomException } from '@app/protocol';
import {
  Clock,
  CommandObserver,
  GameModule,
  Restored,
  RoomActor,
  RoomActorDeps,
  RoomRegistry,
  RoomSnapshot,
  Viewer,
} from '@app/room-engine';
import { GameMetrics } from '@app/observability';
import { BUILTIN_DECK_ID } from '../../../../migrations';
import { SERVER_CONFIG, CLOCK, COMMAND_OBSERVER, JSON_LOG } from '../tokens';
import { ServerConfig } from '../config/server-config';
import { JsonLog } from '../config/json-log';
import { GameRegistry } from './games';
import { newRoomCode, normalizeRoomCode } from './room-code';
import { InstanceIdentity } from '../cluster/instance-identity';
import { LeaseHolder } from '../cluster/instance-heartbeat';
import { DatabaseLink } from '../cluster/database-link';
import { LiveRoomCap } from '../limits/live-room-cap';
import { Admission } from '../limits/admission';
import { RefusalRecorder } from '../refusals/refusal-recorder';
import { deckHash } from './deck-reference';

/** A live room of any game. Its `kind` says which game, and `gameOf(kind)` returns that game. */
export type GameRoom = RoomActor<any, any>;

/** The answer to opening a room over HTTP. It gives the opener's seat and token. */
export interface OpenedRoom {
  readonly game: string;
  readonly roomId: string;
  readonly code: string;
  readonly role: 'host' | 'player';
  readonly seat: string;
  readonly token: string;
}

/** The deck a room opens with. It holds the items and, for a built-in deck, the hash the room keeps instead of a copy. */
interface OpeningDeck {
  readonly id: string;
  readonly items: readonly unknown[];
  /** Set only for a built-in deck, which the room references by its id and this hash. */
  readonly hash?: string;
}

/** The error code for a deck id that no deck has (PROTOCOL.md section 12). */
const DECK_NOT_FOUND = 'deck_not_found';

/** The retry hint for a room that is full of spectators, because one of them may leave soon. */
const SPECTATORS_RETRY_AFTER_SECONDS = 10;

/** The lease length in ms when the config does not set one (PROTOCOL.md section 10). */
const DEFAULT_LEASE_MS = 6000;

/**
 * Manages the rooms of this process. It opens rooms, seats players, and hands each socket to the
 * live room that owns it. A room is activated on first use: it is rebuilt from PostgreSQL as it was,
 * whatever happened to the process that had it before. An idle room leaves memory.
 *
 * A room is live here only while this instance holds its lease. The lease is taken in the
 * statement that loads the room and renewed by the instance's heartbeat, and every write carries
 * its fencing number. A room whose lease another instance holds is refused with 503
 * `room_elsewhere`, and the client retries. A room whose lease this instance lost is let go: its
 * sockets close with 1012 and reconnect to the room's owner. A lease that lapsed only because
 * PostgreSQL could not be reached is not lost (PROTOCOL.md section 11). The rooms stay, their writes
 * are refused until PostgreSQL answers, and the first heartbeat that gets through renews every lease
 * whose fence has not moved.
 */
@Injectable()
export class RoomsService implements RoomDirectory, LeaseHolder {
  readonly registry: RoomRegistry<GameRoom>;
  accepting = true;
  private readonly sharedDecks = new SharedDecks();
  private readonly builtinDecks = new Map<string, OpeningDeck>();

  constructor(
    private readonly rooms: RoomRepository,
    private readonly store: JournalStore,
    private readonly decks: DeckRepository,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(COMMAND_OBSERVER) private readonly observer: CommandObserver,
    @Inject(JSON_LOG) private readonly log: JsonLog,
    private readonly identity: InstanceIdentity,
    private readonly link: DatabaseLink,
    private readonly cap: LiveRoomCap,
    private readonly metrics: GameMetrics,
    private readonly refusals: RefusalRecorder,
    private readonly admission: Admission,
    private readonly gameRegistry: GameRegistry,
  ) {
    this.registry = new RoomRegistry((codes) => this.activate(codes));
  }

  /**
   * Opens a room of any registered game over HTTP (`POST /api/rooms {game, ...settings}`). The
   * game's module reads the settings, names the deck the room copies (if the game plays from one)
   * and makes the first state. The opener gets the token of its seat, which is the host's seat or
   * the first player's.
   */
  async openGame(kind: unknown, body: Readonly<Record<string, unknown>>): Promise<OpenedRoom> {
    // The schema's choices are the registry's games that open over HTTP, so its refusal names them.
    const openable = this.gameRegistry.games.filter((g) => g.opening);
    const { game: chosen } = readBody(gameChoice(openable.map((g) => g.kind) as [string, ...string[]]), { game: kind });
    const game = openable.find((g) => g.kind === chosen)!;
    const opening = game.opening!;
    // Whoever chose the seed would know every deal, so only a server started for tests takes one.
    if (!this.config.allowTestSeeds && body.seed !== undefined) {
      this.metrics.limitRefused('test_seed');
      throw badData('seed', 'is taken only by a server started for tests (ALLOW_TEST_SEEDS=1); leave it out and the deal is random');
    }
    const { game: _game, ...rest } = body;
    const settings = opening.settings(rest, randomInt(2 ** 31 - 1));
    this.cap.checkOpen(this.registry.size);
    const deck = opening.deckOf ? await this.deckCopy(opening.deckOf(settings) ?? BUILTIN_DECK_ID) : undefined;
    const role = opening.openerRole;
    const seat = role === 'host' ? 'host' : randomUUID();
    const { roomId, code } = await this.open(game, settings, deck, (ids, at) =>
      opening.state({ ...ids, opener: seat }, settings, { at, expirySeconds: this.config.roomExpirySeconds, ...(deck ? { deck } : {}) }),
    );
    return { game: chosen, roomId, code, role, seat, token: this.tokens.issue({ roomId, code, role, seat }) };
  }

  /**
   * Returns the items of the deck a room opens with, as the copy that rooms share in memory. A
   * host's deck is copied into the room, so that a later edit or deletion changes no room that has
   * opened. A built-in deck is referenced by its id and content hash. A built-in deck changes only
   * through a migration, which a new process runs before it serves, so it is read once per process.
   */
  private async deckCopy(deckId: string): Promise<OpeningDeck> {
    const known = this.builtinDecks.get(deckId);
    if (known) return known;
    const deck = await this.decks.loadDeck(deckId);
    if (!deck) throw new RoomException(DECK_NOT_FOUND, `no deck has id ${deckId}`, { status: 404 });
    const items = this.sharedDecks.share(deck.questions);
    if (!deck.builtin) return { id: deck.id, items };
    const builtin = { id: deck.id, items, hash: deckHash(items) };
    this.builtinDecks.set(deck.id, builtin);
    return builtin;
  }

  /**
   * Returns the built-in decks that the rooms being restored reference by id. Each is read once per
   * process. A deck whose content no longer has the hash a room opened with (because a migration
   * changed it in place) is missing from the answer. Such a room is refused rather than replayed with
   * other questions.
   */
  private async referencedDecks(stored: readonly StoredRoom[]): Promise<Map<string, OpeningDeck>> {
    const ids = new Set(stored.flatMap((s) => (s.deckRef ? [s.deckRef.id] : [])));
    const found = new Map<string, OpeningDeck>();
    for (const id of ids) {
      let deck: OpeningDeck | undefined;
      try {
        deck = await this.deckCopy(id);
      } catch (err) {
        // A deck that no longer exists counts as a deck that changed. If PostgreSQL is away, the
        // activation fails.
        if (!(err instanceof RoomException)) throw err;
      }
      if (deck?.hash) found.set(deck.hash, deck);
    }
    return found;
  }

  /**
   * Opens a room of `game` with its first state, under a fresh code. Codes are random, so a clash
   * with an open room is rare, and it is simply retried.
   */
  private async open(
    game: GameModule,
    settings: unknown,
    deck: OpeningDeck | undefined,
    opening: (ids: { roomId: string; code: string }, openedAt: number) => unknown,
  ): Promise<{ roomId: string; code: string }> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const roomId = randomUUID();
      const code = newRoomCode();
      const openedAt = this.clock.now();
      const state = opening({ roomId, code }, openedAt);
      const snapshot = { atMs: openedAt, state: game.rules.snapshotOf?.(state) ?? state };
      // A host's deck is copied and also named, so that the retention keeps the deck while it keeps
      // this room.
      const kept = deck?.hash ? { deckRef: { id: deck.id, hash: deck.hash } } : deck ? { deck: deck.items, deckId: deck.id } : {};
      const opened = await this.rooms
        .openRoom(
          { id: roomId, code, game: game.kind, seed: randomInt(2 ** 31 - 1), settings, snapshot, ...kept },
          this.config.commandTimeoutMs,
        )
        .catch((err: unknown) => {
          // The retention removed the host's deck between its read and this write. The foreign key
          // violation means nothing was written, and the deck is treated as if it had never existed.
          if (deck && !deck.hash && (err as { code?: string }).code === '23503') {
            throw new RoomException(DECK_NOT_FOUND, `no deck has id ${deck.id}`, { status: 404 });
          }
          throw err;
        });
      if (opened === 'created') {
        this.log.info('room opened', { room: code, game: game.kind });
        return { roomId, code };
      }
    }
    throw new RoomException(RoomErrorCode.DatabaseUnavailable, 'could not find a free room code; retry');
  }

  /** Seats a player by name, in a game that seats players that way (its module's `join`). */
  async joinRoom(rawCode: string, name: string, kind?: string): Promise<{ playerId: string; playerToken: string }> {
    const room = await this.requireRoom(rawCode, kind);
    const join = this.gameRegistry.gameOf(room.kind).joinProposal;
    if (!join) throw new RoomException(RoomErrorCode.Forbidden, `room ${room.code} is a ${room.kind} room: it seats no players by name`);
    const playerId = randomUUID();
    await room.propose(join, { playerId, name });
    return { playerId, playerToken: this.tokens.issue({ roomId: room.roomId, code: room.code, role: 'player', seat: playerId }) };
  }

  /**
   * Issues a spectator's token for a live room of any game that is not closed, while the room has
   * space for one more spectator (SPECTATORS_PER_ROOM sockets). A spectator's seat is only a token,
   * so the cap applies to the sockets. It is checked here and again at the socket's upgrade.
   */
  async addSpectator(rawCode: string, kind?: string): Promise<{ spectatorToken: string }> {
    const room = await this.requireRoom(rawCode, kind);
    if (this.gameRegistry.gameOf(room.kind).rules.isOver(room.snapshot))
      throw new RoomException(RoomErrorCode.RoomClosed, 'the room is closed');
    const full = this.spectatorsFull(room);
    if (full) throw full;
    const seat = `s-${randomUUID()}`;
    return { spectatorToken: this.tokens.issue({ roomId: room.roomId, code: room.code, role: 'spectator', seat }) };
  }

  /** Returns what anyone may know of a room, as its game decides. */
  async summary(rawCode: string, kind?: string): Promise<Record<string, unknown>> {
    const room = await this.requireRoom(rawCode, kind);
    // `game` comes first because it says which shape the rest has.
    return { game: room.kind, ...this.gameRegistry.gameOf(room.kind).publicSummary(room.snapshot) };
  }

  /**
   * Closes a room from outside its actor. One statement closes it and also sends a NOTIFY, so that
   * the actor, here or on another instance, tells its sockets. Closing a closed room again is not an
   * error.
   */
  async closeRoom(target: { roomId: string } | { code: string }, reason: string): Promise<boolean> {
    const closed = await this.rooms.closeRoom(target, reason, this.config.commandTimeoutMs);
    if (!closed) return false;
    this.log.info('room closed', { room: closed.code, reason });
    // The room live here hears of the close now, so that the caller's next request sees it closed.
    // A room live on another instance hears of it through NOTIFY.
    await this.onRoomChange({ ...closed, change: 'closed', reason });
    return true;
  }

  async closeByOperator(rawCode: string): Promise<void> {
    const code = normalizeRoomCode(rawCode);
    if (!code || !(await this.closeRoom({ code }, 'operator_closed'))) {
      throw new RoomException(RoomErrorCode.RoomNotFound, `no open room has code ${rawCode}`);
    }
  }

  /**
   * Lets an operator kick a player. It sends the same command the host would (the registry's
   * `kickCommands`), and the room takes it in turn with its other commands. A room of a game that
   * kicks no one answers as it answers any unknown command.
   */
  async kickByOperator(rawCode: string, playerId: string): Promise<void> {
    const room = await this.requireRoom(rawCode);
    const kick = this.gameRegistry.kickCommands[room.kind];
    if (!kick) throw this.gameRegistry.gameOf(room.kind).error(RoomErrorCode.UnknownType, `a ${room.kind} room has no player to kick`);
    const reply = await room.operatorCommand({ id: `operator-kick-${randomUUID()}`, type: kick, data: { playerId } });
    // Throw the room's own refusal, with the statuses its game gives that code.
    if (reply.error) throw this.gameRegistry.gameOf(room.kind).error(reply.error.code, reply.error.message);
  }

  /**
   * Closes a room with a seat's token, if the room's game lets that seat close it (its module's
   * `mayClose`). The reason recorded is `<role>_closed`. Closing a closed room again is not an error.
   */
  async closeWithToken(rawCode: string, claims: SeatClaims, kind?: string): Promise<void> {
    const code = normalizeRoomCode(rawCode);
    if (!code || code !== claims.code) throw new RoomException(RoomErrorCode.RoomNotFound, 'this token is not for that room');
    let room: GameRoom;
    try {
      room = await this.requireRoom(code, kind);
    } catch (err) {
      // The room is closed and gone from memory. For a seat that could have closed it, closing it
      // again is not an error.
      if (err instanceof RoomException && err.code === RoomErrorCode.RoomGone && claims.role !== 'spectator') return;
      throw err;
    }
    if (room.roomId !== claims.roomId || !this.gameRegistry.gameOf(room.kind).mayClose(room.snapshot, claims)) {
      throw new RoomException(RoomErrorCode.Forbidden, `this ${claims.role}'s token may not close the room`);
    }
    await this.closeRoom({ roomId: claims.roomId }, `${claims.role}_closed`);
  }

  /** Applies a change made outside the actor, which this instance heard through NOTIFY. */
  async onRoomChange(change: RoomChange): Promise<void> {
    const room = this.registry.peek(change.code);
    if (room && room.roomId === change.roomId && change.change === 'closed') await room.closedElsewhere(change.reason);
  }

  /**
   * Runs before a socket exists. It makes the socket's room live here, loading it if needed. A
   * socket that this instance cannot serve now (PostgreSQL is away, another instance has the room,
   * or there is no space for more rooms) is then refused at the upgrade with a status and a retry
   * hint, rather than accepted and closed.
   */
  async admit(claims: SeatClaims): Promise<AdmitResult> {
    try {
      const room = await this.registry.get(claims.code);
      const full = claims.role === 'spectator' && room ? this.spectatorsFull(room) : undefined;
      if (full) return { ok: false, status: full.httpStatus, retryAfterSeconds: SPECTATORS_RETRY_AFTER_SECONDS, message: full.message };
      return { ok: true };
    } catch (err) {
      // A closed room's socket is accepted and then closed with 4004, as it would be if the room were
      // live here. The 4004 tells its client to stop reconnecting.
      if (err instanceof RoomException && err.code === RoomErrorCode.RoomGone) return { ok: true };
      const refusal =
        err instanceof RoomException ? err : new RoomException(RoomErrorCode.DatabaseUnavailable, 'the room cannot be loaded now; retry');
      if (!(err instanceof RoomException)) this.log.warn('a socket’s room could not be loaded', { room: claims.code, error: String(err) });
      // Give the same retry hint that an HTTP request gets for the same refusal.
      const retryAfterSeconds = retryAfterFor(refusal.code, refusal.retryAfterSeconds) ?? 2;
      return { ok: false, status: refusal.httpStatus, retryAfterSeconds, message: refusal.message };
    }
  }

  async connect(viewer: Viewer, claims: SeatClaims): Promise<ConnectResult> {
    let room: GameRoom | undefined;
    try {
      room = await this.registry.get(claims.code);
    } catch (err) {
      // The room was admitted at the upgrade and has been lost since: it was passivated and cannot
      // be loaded, or another instance took it. The client should reconnect.
      if (err instanceof RoomException && err.code === RoomErrorCode.RoomElsewhere)
        return { ok: false, closeCode: CloseCode.roomReloading, reason: 'room served elsewhere' };
      if (err instanceof RoomException && err.code === RoomErrorCode.RoomGone)
        return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
      throw err;
    }
    if (!room || room.roomId !== claims.roomId) {
      // The code now names another room, so this token's room is gone.
      return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
    }
    const attached = room.attach(viewer);
    if (!attached.ok) return attached;
    return {
      ok: true,
      room: {
        submit: (frame, arrival) => room.submit(viewer, frame, arrival),
        refused: (type, error, at) => room.refusedBefore(viewer, type, error, at),
        detach: () => room.detach(viewer),
      },
    };
  }

  /**
   * Returns the refusal of one more spectator when the room already holds SPECTATORS_PER_ROOM
   * spectator sockets, or undefined while it has space.
   */
  private spectatorsFull(room: GameRoom): RoomException | undefined {
    const cap = this.config.spectatorsPerRoom;
    if (cap === 0) return undefined;
    let spectators = 0;
    for (const viewer of room.viewers) if (viewer.role === 'spectator') spectators++;
    if (spectators < cap) return undefined;
    this.metrics.limitRefused('room_spectators');
    return new RoomException(
      RoomErrorCode.SpectatorsFull,
      `room ${room.code} has its maximum of ${cap} spectators; retry later`,
      undefined,
      SPECTATORS_RETRY_AFTER_SECONDS,
    );
  }

  /** Stops taking commands and waits (up to `timeoutMs`) for every room to finish what it holds. */
  async drain(timeoutMs: number): Promise<void> {
    this.accepting = false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    const held = this.heldLeases();
    await Promise.race([Promise.all(this.registry.rooms().map((r) => r.drain())), timeout]);
    clearTimeout(timer);
    this.registry.disposeAll();
    // Give the leases up at once, so that another instance can take these rooms without waiting for
    // the leases to expire.
    if (held.length) {
      await this.rooms
        .releaseLeases(this.identity.name, held, this.config.commandTimeoutMs)
        .catch((err) => this.log.warn('could not release the leases at drain; they run out by themselves', { error: String(err) }));
    }
  }

  /** Returns the lease of every open room live here, with its fence. A drain gives these up. */
  private heldLeases(): { id: string; fence: number }[] {
    const held: { id: string; fence: number }[] = [];
    for (const r of this.registry.rooms())
      if (r.phase !== 'disposed' && r.snapshot.phase !== 'closed') held.push({ id: r.roomId, fence: r.fence });
    return held;
  }

  renewed(lost: readonly LostLease[]): void {
    this.lapseLogged = false;
    if (lost.length === 0) return;
    // Make one pass over the live rooms, however many leases were lost, and find the lost ones by id.
    const byId = new Map(lost.map((l) => [l.id, l.fence]));
    for (const room of this.registry.rooms()) {
      const fence = byId.get(room.roomId);
      // A copy loaded here after the heartbeat read the lease has a higher fence, so it holds the
      // lease now. A room that closed meanwhile has nothing to give up.
      if (fence === undefined || room.fence > fence || room.snapshot.phase === 'closed') continue;
      room.letGo('another instance holds its lease now, or asked for it');
    }
  }

  unrenewedFor(ms: number): void {
    // Logged once per outage. Leases may have lapsed meanwhile, but the rooms stay on this instance
    // (see the class comment).
    if (ms < this.leaseMs || this.lapseLogged) return;
    this.lapseLogged = true;
    this.log.warn('leases not renewed for longer than a lease: rooms kept, their writes refused until PostgreSQL answers', {
      unrenewedMs: Math.round(ms),
      rooms: this.registry.size,
    });
  }

  private lapseLogged = false;

  private get leaseMs(): number {
    return this.config.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * Returns the room with this code, and activates it if it is not live here. `kind` is given by
   * an alias of the rooms' paths for one game (the registry's `ROOM_ALIASES`). With it, a room of
   * another game is refused with 404.
   */
  async requireRoom(rawCode: string, kind?: string): Promise<GameRoom> {
    const room = await this.find(rawCode);
    if (!room || (kind !== undefined && room.kind !== kind))
      throw new RoomException(RoomErrorCode.RoomNotFound, `no ${kind ? `${kind} ` : ''}room has code ${rawCode}`);
    return room;
  }

  private async find(rawCode: string): Promise<GameRoom | undefined> {
    const code = normalizeRoomCode(rawCode);
    return code ? await this.registry.get(code) : undefined;
  }

  /**
   * Loads the rooms asked for together in one statement and rebuilds them as they were. Deadlines
   * that passed while no process had a room take effect before anyone sees the room.
   */
  private async activate(codes: string[]): Promise<Map<string, GameRoom | Error>> {
    // While this instance is overloaded, no room goes live here. Loading a room is new work, and the
    // rooms already live come first.
    const overloaded = this.admission.refusalFor(codes.length);
    if (overloaded) return new Map(codes.map((code) => [code, overloaded]));
    const { admitted, refused } = await this.admitLive(codes);
    // Just after an outage, this instance neither takes a lapsed lease nor asks for a held one. The
    // lease's holder was most likely cut off too, and it renews the lease at its next heartbeat.
    const lease = { owner: this.identity.name, ms: this.leaseMs, takeLapsed: this.link.steadyFor(this.leaseMs) };
    // A closed room past its results window has no snapshot any more. It is gone, and its code
    // answers 404. A closed room still within its results window comes back as its row alone. It is
    // answered from that row (410) and never rebuilt.
    const stored = (admitted.length ? await this.rooms.loadRooms(admitted, this.config.commandTimeoutMs, lease) : []).filter(
      (s) => !s.pruned,
    );
    const gone = new Map<string, Error>();
    for (const s of stored)
      if (s.closedReason !== null)
        gone.set(s.code, new RoomException(RoomErrorCode.RoomGone, `room ${s.code} is closed (${s.closedReason})`));
    const served = stored.filter((s) => s.heldBy === null && s.closedReason === null);
    const decks = await this.referencedDecks(served);
    const live = new Map<string, GameRoom>();
    const elsewhere = new Map<string, Error>();
    for (const s of stored) {
      if (s.closedReason !== null) continue;
      if (s.heldBy !== null) {
        elsewhere.set(
          s.code,
          new RoomException(RoomErrorCode.RoomElsewhere, `the room is served by instance ${s.heldBy} now; retry shortly`),
        );
        continue;
      }
      const deck = s.deckRef ? decks.get(s.deckRef.hash) : undefined;
      if (s.deckRef && !deck) {
        this.log.error('a room’s built-in deck is not the one it opened with: it cannot be rebuilt', { room: s.code, deck: s.deckRef.id });
        elsewhere.set(s.code, new Error(`room ${s.code} plays built-in deck ${s.deckRef.id} as it was, and that deck has changed since`));
        continue;
      }
      const room = this.restore(s, deck?.items);
      live.set(s.code, room);
      this.log.info('room activated', { room: s.code, phase: this.gameRegistry.gameOf(s.game).rules.summarize(room.snapshot).phase });
    }
    await Promise.all([...live.values()].map((r) => r.catchUp()));
    return new Map<string, GameRoom | Error>([...live, ...elsewhere, ...gone, ...refused]);
  }

  /**
   * Picks the codes to load within the live-room cap. A room is refused before its lease is taken,
   * so there is nothing to give back. When the batch holds more codes than the cap has space for,
   * the codes of open rooms are found first. That way an unknown or closed code (such as a lookup of
   * a random code) never takes the place of a real room. Those codes are loaded as well, and come
   * back as nothing or as a closed row.
   */
  private async admitLive(codes: string[]): Promise<{ admitted: string[]; refused: Map<string, RoomException> }> {
    if (!this.cap.wouldRefuse(this.registry.size, codes.length)) return this.cap.admit(this.registry.size, codes);
    const open = new Set(await this.rooms.openCodes(codes, this.config.commandTimeoutMs));
    const { admitted, refused } = this.cap.admit(
      this.registry.size,
      codes.filter((c) => open.has(c)),
    );
    return { admitted: [...admitted, ...codes.filter((c) => !open.has(c))], refused };
  }

  /**
   * Rebuilds a room from its snapshot and journal through its game's rules, with the built-in deck
   * it references, if any. Every open room has a snapshot, because opening a room writes the first
   * one. The rooms from before the journal that had none were closed by migration 1764892800000.
   */
  private restore(s: StoredRoom, referenced: readonly unknown[] | undefined): GameRoom {
    const game = this.gameRegistry.gameOf(s.game);
    const ids = { code: s.code, roomId: s.roomId, openedAt: s.createdAt };
    if (!s.snapshot) throw new Error(`room ${s.code} has no snapshot to restore it from`);
    const snapshot = s.snapshot.state as RoomSnapshot;
    const deck = referenced ?? (s.deck ? this.sharedDecks.share(s.deck as unknown[]) : undefined);
    const opened = deck ? { deck } : {};
    const restored: Restored<unknown> = {
      state: game.fromSnapshot?.(snapshot.state, opened) ?? snapshot.state,
      replies: snapshot.replies,
      journal: s.entries.map(inputOf),
    };
    // A refusal names its seat as the room knows that seat at the moment of the refusal.
    let room: GameRoom | undefined;
    const nameOf = (seat: string) => (room ? game.seatName?.(room.snapshot, seat) : undefined);
    room = RoomActor.restore(ids, game.rules, restored, this.deps(s, nameOf));
    return room;
  }

  private deps(s: StoredRoom, nameOf: (seat: string) => string | undefined): RoomActorDeps {
    return {
      store: this.store,
      clock: this.clock,
      observer: this.observer,
      onRefusal: this.refusals.hookFor(s.roomId, nameOf),
      mailboxDepth: this.config.mailboxDepth,
      pipelineDepth: this.config.pipelineDepth,
      replyMemory: this.config.replyMemory,
      passivateAfterMs: this.config.passivateAfterMs,
      commandBudgetMs: this.config.commandTimeoutMs,
      seed: s.seed,
      // The ids the rules hand out (such as a results link) come from the server's secret, so that
      // no client can guess them, and from the room, so that every instance and every replay makes
      // the same ids.
      idSecret: createHmac('sha256', this.config.tokenSecret).update(`room-ids:${s.roomId}`).digest('base64url'),
      committedStatements: s.commitSeq,
      fence: s.fence,
      onDispose: (r) => this.registry.remove(r as GameRoom),
      onFault: () => this.metrics.roomFaulted(),
      log: (level, msg, fields) => this.log[level](msg, fields),
    };
  }
}
