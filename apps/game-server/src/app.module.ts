import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { DataSource } from 'typeorm';
import {
  DEFAULT_GATEWAY_OPTIONS,
  GATEWAY_OPTIONS,
  GameGateway,
  GatewayOptions,
  ROOM_DIRECTORY,
  SEAT_TOKENS,
  SeatTokens,
  WIRE_OBSERVER,
} from '@app/gateway';
import { GameMetrics, METRIC_PROVIDERS, prometheusModule } from '@app/observability';
import {
  Database,
  FinishedGamesRepository,
  HealthRepository,
  InstanceRepository,
  JournalRepository,
  JournalStore,
  LeaderboardRepository,
  RefusalRepository,
  RetentionRepository,
  RoomRepository,
  StatementMeter,
} from '@app/persistence';
import { DeckRepository } from './decks/deck.repository';
import { Clock } from '@app/room-engine';
import { AdminController } from './admin/admin.controller';
import { AdminAuth } from './admin/admin-auth';
import { AdminSessionController } from './admin/admin-session.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { AdminViewService } from './admin/admin-view.service';
import { AdminHistoryController } from './admin/admin-history.controller';
import { AdminHistoryService } from './admin/admin-history.service';
import { DEFAULT_REFUSALS_KEPT_DAYS, DEFAULT_REFUSALS_PER_ROOM_PER_MINUTE, RefusalRecorder } from './refusals/refusal-recorder';
import { RetentionPruner } from './retention/retention-pruner';
import { DEFAULT_RETENTION_BATCH_ROWS, finishedGamesKeptDays, resultsKeptDays } from './retention/retention-windows';
import { DecksController } from './api/decks.controller';
import { DecksService } from './decks/decks.service';
import { HealthController } from './api/health.controller';
import { HttpErrorsFilter } from './api/http-errors.filter';
import { LeaderboardController } from './api/leaderboard.controller';
import { ResultsController } from './api/results.controller';
import { RoomsController } from './api/rooms.controller';
import { ROOM_ALIAS_CONTROLLERS } from './api/room-alias.controller';
import { BuildInfo } from './config/build-info';
import { InstanceHeartbeat } from './cluster/instance-heartbeat';
import { InstanceIdentity } from './cluster/instance-identity';
import { DatabaseLink } from './cluster/database-link';
import { JsonLog } from './config/json-log';
import { LiveRoomCap } from './limits/live-room-cap';
import { Admission } from './limits/admission';
import { AdmissionGuard } from './limits/admission.guard';
import { AddressLimits } from './limits/address-limits';
import { ServerConfig, statementTimeoutMs } from './config/server-config';
import { serverCodes } from './rooms/games';
import { RoomsService } from './rooms/rooms.service';
import { BUILD_INFO, CLOCK, COMMAND_OBSERVER, JSON_LOG, SERVER_CONFIG } from './tokens';

/** What the server is built from; opened before Nest starts so migrations have run. */
export interface ServerRuntime {
  readonly config: ServerConfig;
  readonly dataSource: DataSource;
  readonly meter: StatementMeter;
  readonly build: BuildInfo;
  readonly clock: Clock;
  readonly log: JsonLog;
}

const REPOSITORIES = [
  RoomRepository,
  JournalRepository,
  DeckRepository,
  LeaderboardRepository,
  HealthRepository,
  InstanceRepository,
  RefusalRepository,
  FinishedGamesRepository,
  RetentionRepository,
];

@Module({})
export class AppModule {
  static forRoot(runtime: ServerRuntime): DynamicModule {
    const gatewayOptions: GatewayOptions = {
      ...DEFAULT_GATEWAY_OPTIONS,
      allowedOrigins: runtime.config.allowedOrigins,
      sendQueueBytes: runtime.config.sendQueueBytes,
      sendQueueFrames: runtime.config.sendQueueFrames,
      socketsPerSeat: runtime.config.socketsPerSeat,
      maxSockets: runtime.config.maxSockets,
      pingIdleMs: runtime.config.socketPingIdleMs ?? DEFAULT_GATEWAY_OPTIONS.pingIdleMs,
      pongTimeoutMs: runtime.config.socketPongTimeoutMs ?? DEFAULT_GATEWAY_OPTIONS.pongTimeoutMs,
      codes: serverCodes(),
    };
    return {
      module: AppModule,
      imports: [prometheusModule()],
      controllers: [RoomsController, ...ROOM_ALIAS_CONTROLLERS, DecksController, LeaderboardController, ResultsController, HealthController, AdminController, AdminHistoryController, AdminSessionController],
      providers: [
        { provide: SERVER_CONFIG, useValue: runtime.config },
        { provide: CLOCK, useValue: runtime.clock },
        { provide: JSON_LOG, useValue: runtime.log },
        { provide: BUILD_INFO, useValue: runtime.build },
        { provide: StatementMeter, useValue: runtime.meter },
        ...METRIC_PROVIDERS,
        GameMetrics,
        { provide: COMMAND_OBSERVER, useExisting: GameMetrics },
        { provide: WIRE_OBSERVER, useExisting: GameMetrics },
        { provide: Database, useValue: new Database(runtime.dataSource, runtime.meter, statementTimeoutMs(runtime.config), runtime.config.commitLanes, runtime.config.silenceMs) },
        ...REPOSITORIES.map((repo) => ({ provide: repo, useFactory: (db: Database) => new repo(db), inject: [Database] })),
        { provide: JournalStore, useFactory: (journal: JournalRepository) => new JournalStore(journal), inject: [JournalRepository] },
        { provide: SEAT_TOKENS, useValue: new SeatTokens(runtime.config.tokenSecret) },
        {
          provide: RefusalRecorder,
          useFactory: (repo: RefusalRepository, metrics: GameMetrics) =>
            new RefusalRecorder(
              repo,
              {
                keptDays: runtime.config.refusalsKeptDays ?? DEFAULT_REFUSALS_KEPT_DAYS,
                perRoomPerMinute: runtime.config.refusalsPerRoomPerMinute ?? DEFAULT_REFUSALS_PER_ROOM_PER_MINUTE,
                timeoutMs: statementTimeoutMs(runtime.config),
              },
              metrics,
              (msg, fields) => runtime.log.warn(msg, fields),
            ),
          inject: [RefusalRepository, GameMetrics],
        },
        AddressLimits,
        {
          provide: RetentionPruner,
          useFactory: (repo: RetentionRepository, metrics: GameMetrics) =>
            new RetentionPruner(
              repo,
              {
                resultsKeptDays: resultsKeptDays(runtime.config),
                finishedGamesKeptDays: finishedGamesKeptDays(runtime.config),
                batchRows: runtime.config.retentionBatchRows ?? DEFAULT_RETENTION_BATCH_ROWS,
                sweepMs: runtime.config.retentionSweepMs ?? 0,
                timeoutMs: statementTimeoutMs(runtime.config),
              },
              metrics,
              (msg, fields) => runtime.log.warn(msg, fields),
            ),
          inject: [RetentionRepository, GameMetrics],
        },
        LiveRoomCap,
        Admission,
        AdmissionGuard,
        RoomsService,
        DecksService,
        { provide: InstanceIdentity, useValue: new InstanceIdentity(runtime.config) },
        { provide: DatabaseLink, useValue: new DatabaseLink(runtime.config.heartbeatMs ?? 0) },
        {
          provide: InstanceHeartbeat,
          useFactory: (instances: InstanceRepository, identity: InstanceIdentity, rooms: RoomsService, link: DatabaseLink) =>
            new InstanceHeartbeat(instances, identity, () => rooms.registry.size, runtime.config.heartbeatMs ?? 0, runtime.log, rooms, link),
          inject: [InstanceRepository, InstanceIdentity, RoomsService, DatabaseLink],
        },
        { provide: ROOM_DIRECTORY, useExisting: RoomsService },
        { provide: GATEWAY_OPTIONS, useValue: gatewayOptions },
        GameGateway,
        AdminAuth,
        AdminTokenGuard,
        AdminViewService,
        AdminHistoryService,
        { provide: APP_FILTER, useClass: HttpErrorsFilter },
      ],
    };
  }
}
