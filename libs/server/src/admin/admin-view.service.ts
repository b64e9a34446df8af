import { Inject, Injectable } from '@nestjs/common';
import { GameMetrics } from '@app/observability';
import { Database } from '@app/persistence';
import { Overview, RoomErrorCode, RoomException, RoomRow, RoomsSnapshot } from '@app/protocol';
import { BuildInfo } from '../config/build-info';
import { Admission } from '../limits/admission';
import { GameRegistry } from '../rooms/games';
import { GameRoom, RoomsService } from '../rooms/rooms.service';
import { BUILD_INFO } from '../tokens';

// The answers have the shapes of the admin schemas (packages/client/src/http/admin.ts). So what the
// API document shows, and the console's types, are checked against what is built here.
export type { RoomRow };

/** Builds what operators see from the live rooms and the metrics, never from a database query. */
@Injectable()
export class AdminViewService {
  constructor(
    private readonly rooms: RoomsService,
    private readonly metrics: GameMetrics,
    private readonly db: Database,
    private readonly admission: Admission,
    @Inject(BUILD_INFO) private readonly build: BuildInfo,
    private readonly registry: GameRegistry,
  ) {}

  overview(): Overview {
    const now = Date.now();
    return {
      rooms: this.rooms.registry.size,
      sockets: this.metrics.socketCounts(),
      commandsPerSecond: this.metrics.tally.perSecondRate(now),
      commands: this.metrics.tally.commands(),
      pool: this.db.poolStats(),
      poolAcquire: this.metrics.acquireSummary(),
      admission: this.admission.view(),
      build: { version: this.build.version, sha: this.build.sha },
      serverTime: now,
    };
  }

  roomList(): RoomsSnapshot {
    return {
      rooms: this.rooms.registry
        .rooms()
        .map((r) => this.row(r))
        .sort((a, b) => a.code.localeCompare(b.code)),
    };
  }

  roomDetail(code: string) {
    const room = this.rooms.registry.peek(code.toUpperCase());
    if (!room) throw new RoomException(RoomErrorCode.RoomNotFound, `no live room has code ${code}`);
    return {
      ...this.row(room),
      ...this.registry.gameOf(room.kind).operatorDetail(room.snapshot),
      lastCommands: room.stats.lastCommands(),
      replyMemory: room.replyMemory,
    };
  }

  // Every game's row comes from the game's own summary. The game's seats fill the row's player
  // fields, and the game's round (a question, a hand) fills its `question` field.
  private row(room: GameRoom): RoomRow {
    const summary = this.registry.gameOf(room.kind).rules.summarize(room.snapshot);
    return {
      code: summary.code,
      game: room.kind,
      phase: summary.phase,
      playersConnected: summary.seatsConnected,
      players: summary.seats,
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
