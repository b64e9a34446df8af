import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConnectResult, RoomDirectory, SEAT_TOKENS, SeatClaims, SeatTokens } from '@app/gateway';
import { BUILTIN_DECK_ID, RoomChange, RoomRepository } from '@app/persistence';
import { CloseCode, RoomErrorCode, RoomException } from '@app/protocol';
import { Clock, RoomRegistry, Viewer } from '@app/room-engine';
import { publicSummary } from '@app/trivia';
import { SERVER_CONFIG, CLOCK, COMMAND_OBSERVER, JSON_LOG } from '../tokens';
import { ServerConfig } from '../config/server-config';
import { JsonLog } from '../config/json-log';
import { RoomCommitter } from './room-committer';
import { newRoomCode, normalizeRoomCode } from './room-code';
import { stateFromStored } from './room-state.factory';
import { CommandObserver, TriviaRoom } from './trivia-room';

export interface RoomSettingsInput {
  readonly hostName: string;
  readonly deckId?: string;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly maxPlayers: number;
  readonly minPlayers: number;
}

/**
 * The rooms of this process: opening them, seating players, and handing sockets to the live
 * room that owns them. Live rooms are activated on first use and leave memory when idle.
 */
@Injectable()
export class RoomsService implements RoomDirectory {
  readonly registry: RoomRegistry<TriviaRoom>;
  accepting = true;

  constructor(
    private readonly rooms: RoomRepository,
    private readonly committer: RoomCommitter,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(COMMAND_OBSERVER) private readonly observer: CommandObserver,
    @Inject(JSON_LOG) private readonly log: JsonLog,
  ) {
    this.registry = new RoomRegistry((codes) => this.activate(codes));
  }

  async createRoom(input: RoomSettingsInput): Promise<{ roomId: string; code: string; hostToken: string }> {
    const deckId = input.deckId ?? BUILTIN_DECK_ID;
    // Codes are random; a clash with an open room is rare and simply retried.
    for (let attempt = 0; attempt < 8; attempt++) {
      const roomId = randomUUID();
      const code = newRoomCode();
      const result = await this.rooms.createRoom({ id: roomId, code, ...input, deckId });
      if (result === 'created') {
        this.log.info('room opened', { room: code });
        return { roomId, code, hostToken: this.tokens.issue({ roomId, code, role: 'host', seat: 'host' }) };
      }
      if (result === 'code_taken') continue;
      if ('deckNotFound' in result) throw new RoomException(RoomErrorCode.DeckNotFound, `no deck has id ${deckId}`);
      throw new RoomException(
        RoomErrorCode.BadData,
        `questionCount: the deck has only ${result.deckTooSmall} questions, fewer than the ${input.questionCount} asked for`,
      );
    }
    throw new RoomException(RoomErrorCode.DatabaseUnavailable, 'could not find a free room code; retry');
  }

  async joinRoom(rawCode: string, name: string): Promise<{ playerId: string; playerToken: string }> {
    const room = await this.require(rawCode);
    const playerId = randomUUID();
    await room.join(playerId, name);
    return { playerId, playerToken: this.tokens.issue({ roomId: room.roomId, code: room.code, role: 'player', seat: playerId }) };
  }

  async addSpectator(rawCode: string): Promise<{ spectatorToken: string }> {
    const room = await this.require(rawCode);
    if (room.snapshot.phase === 'closed') throw new RoomException(RoomErrorCode.RoomClosed, 'the room is closed');
    const seat = `s-${randomUUID()}`;
    return { spectatorToken: this.tokens.issue({ roomId: room.roomId, code: room.code, role: 'spectator', seat }) };
  }

  async summary(rawCode: string): Promise<Record<string, unknown>> {
    return publicSummary((await this.require(rawCode)).snapshot);
  }

  /**
   * Closes a room from outside its actor: one statement that also NOTIFYs, so the actor (here
   * or on another instance) tells its sockets. Closing a closed room again is not an error.
   */
  async closeRoom(target: { roomId: string } | { code: string }, reason: string): Promise<boolean> {
    const closed = await this.rooms.closeRoom(target, reason);
    if (closed) this.log.info('room closed', { room: closed.code, reason });
    return closed !== null;
  }

  async closeByOperator(rawCode: string): Promise<void> {
    const code = normalizeRoomCode(rawCode);
    if (!code || !(await this.closeRoom({ code }, 'operator_closed'))) {
      throw new RoomException(RoomErrorCode.RoomNotFound, `no open room has code ${rawCode}`);
    }
  }

  /** An operator kicks a player: the same command as the host's, taken in the room's turn. */
  async kickByOperator(rawCode: string, playerId: string): Promise<void> {
    const room = await this.require(rawCode);
    const reply = await room.operatorCommand({ id: `operator-kick-${randomUUID()}`, type: 'room.kick', data: { playerId } });
    if (reply.error) throw new RoomException(reply.error.code as RoomErrorCode, reply.error.message);
  }

  async closeByHost(rawCode: string, claims: SeatClaims): Promise<void> {
    const code = normalizeRoomCode(rawCode);
    if (!code || code !== claims.code) throw new RoomException(RoomErrorCode.RoomNotFound, 'this token is not for that room');
    if (claims.role !== 'host') throw new RoomException(RoomErrorCode.Forbidden, 'only the host may close the room');
    await this.closeRoom({ roomId: claims.roomId }, 'host_closed');
  }

  /** A change made outside the actor, heard through NOTIFY. */
  onRoomChange(change: RoomChange): void {
    const room = this.registry.peek(change.code);
    if (room && room.roomId === change.roomId && change.change === 'closed') room.closedElsewhere(change.reason);
  }

  async connect(viewer: Viewer, claims: SeatClaims): Promise<ConnectResult> {
    const room = await this.registry.get(claims.code);
    if (!room || room.roomId !== claims.roomId) {
      // The code now names another room: this token's room is gone.
      return { ok: false, closeCode: CloseCode.roomClosed, reason: 'room closed' };
    }
    const attached = room.attach(viewer);
    if (!attached.ok) return attached;
    return {
      ok: true,
      room: {
        submit: (frame, arrival) => room.submit(viewer, frame, arrival),
        detach: () => room.detach(viewer),
      },
    };
  }

  /** Stops taking commands and waits (up to `timeoutMs`) for every mailbox to empty. */
  async drain(timeoutMs: number): Promise<void> {
    this.accepting = false;
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && this.registry.rooms().some((r) => r.mailboxDepth > 0 || r.isBusy)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    this.registry.disposeAll();
  }

  private async require(rawCode: string): Promise<TriviaRoom> {
    const code = normalizeRoomCode(rawCode);
    const room = code ? await this.registry.get(code) : undefined;
    if (!room) throw new RoomException(RoomErrorCode.RoomNotFound, `no room has code ${rawCode}`);
    return room;
  }

  private async activate(codes: string[]): Promise<Map<string, TriviaRoom>> {
    const stored = await this.rooms.loadRooms(codes);
    const live = new Map<string, TriviaRoom>();
    for (const s of stored) {
      const room = new TriviaRoom(
        stateFromStored(s, this.config.roomExpirySeconds),
        {
        committer: this.committer,
        clock: this.clock,
        observer: this.observer,
        mailboxDepth: this.config.mailboxDepth,
        passivateAfterMs: this.config.passivateAfterMs,
        onDispose: (r) => this.registry.remove(r),
        log: (level, msg, fields) => this.log[level](msg, fields),
        },
        s.createdAt,
      );
      live.set(s.code, room);
      if (!s.closed) this.log.info('room activated', { room: s.code, phase: room.snapshot.phase });
    }
    return live;
  }
}
