import { Inject, Injectable } from '@nestjs/common';
import { GameMetrics } from '@app/observability';
import { Database } from '@app/persistence';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { BuildInfo } from '../config/build-info';
import { cardsRules, publicTableSummary } from '@app/games/cards';
import { CardsRoom, GameRoom, isCards, RoomsService } from '../rooms/rooms.service';
import { BUILD_INFO } from '../tokens';

export interface RoomRow {
  code: string;
  phase: string;
  playersConnected: number;
  players: number;
  question: number | null;
  mailboxDepth: number;
  mailboxDepthMax: number;
  /** The room's statements sent and not yet answered (pipelined commits). */
  statementsInFlight: number;
  commands: number;
  lastCommandMs: number | null;
  ageSeconds: number;
}

/** What operators see: built from the live rooms and the metrics, never from a query. */
@Injectable()
export class AdminViewService {
  constructor(
    private readonly rooms: RoomsService,
    private readonly metrics: GameMetrics,
    private readonly db: Database,
    @Inject(BUILD_INFO) private readonly build: BuildInfo,
  ) {}

  overview() {
    const now = Date.now();
    return {
      rooms: this.rooms.registry.size,
      sockets: this.metrics.socketCounts(),
      commandsPerSecond: this.metrics.tally.perSecondRate(now),
      commands: this.metrics.tally.commands(),
      pool: this.db.poolStats(),
      poolAcquire: this.metrics.acquireSummary(),
      build: { version: this.build.version, sha: this.build.sha },
      serverTime: now,
    };
  }

  roomList(): { rooms: RoomRow[] } {
    return { rooms: this.rooms.registry.rooms().map((r) => this.row(r)).sort((a, b) => a.code.localeCompare(b.code)) };
  }

  roomDetail(code: string) {
    const room = this.rooms.registry.peek(code.toUpperCase());
    if (!room) throw new RoomException(RoomErrorCode.RoomNotFound, `no live room has code ${code}`);
    if (isCards(room)) return { ...this.row(room), table: publicTableSummary(room.snapshot), lastCommands: room.stats.lastCommands() };
    const s = room.snapshot;
    const q = s.game && s.phase === 'question' ? s.game.questions[s.game.index] : undefined;
    return {
      ...this.row(room),
      players: s.players.map((p) => ({ id: p.id, name: p.name, connected: p.connected, score: p.score })),
      hostName: s.hostName,
      openQuestion: q && s.game ? { index: s.game.index, total: s.game.questions.length, text: q.text, closesAt: s.game.closesAt } : null,
      lastCommands: room.stats.lastCommands(),
    };
  }

  private row(room: GameRoom): RoomRow {
    if (isCards(room)) return this.tableRow(room);
    const s = room.snapshot;
    return {
      code: s.code,
      phase: s.phase,
      playersConnected: s.players.filter((p) => p.connected).length,
      players: s.players.length,
      question: s.game && (s.phase === 'question' || s.phase === 'reveal') ? s.game.index : null,
      mailboxDepth: room.mailboxDepth,
      mailboxDepthMax: room.mailboxDepthMax,
      statementsInFlight: room.statementsInFlight,
      commands: room.stats.commands,
      lastCommandMs: room.stats.lastCommandMs,
      ageSeconds: Math.round((Date.now() - room.openedAt) / 1000),
    };
  }

  // A card table: its one human is its player; the hand number stands where a question would.
  private tableRow(room: CardsRoom): RoomRow {
    const summary = cardsRules.summarize(room.snapshot);
    return {
      code: summary.code,
      phase: summary.phase,
      playersConnected: summary.seatsConnected,
      players: 1,
      question: summary.round,
      mailboxDepth: room.mailboxDepth,
      mailboxDepthMax: room.mailboxDepthMax,
      statementsInFlight: room.statementsInFlight,
      commands: room.stats.commands,
      lastCommandMs: room.stats.lastCommandMs,
      ageSeconds: Math.round((Date.now() - room.openedAt) / 1000),
    };
  }
}
