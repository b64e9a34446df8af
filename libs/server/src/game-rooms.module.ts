import { DynamicModule, InjectionToken, Module, Provider } from '@nestjs/common';
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
  ImageRepository,
  InstanceRepository,
  JournalRepository,
  JournalStore,
  LeaderboardRepository,
  openDataSource,
  RefusalRepository,
  RetentionRepository,
  RoomRepository,
  StatementMeter,
} from '@app/persistence';
import { Clock, systemClock } from '@app/room-engine';
import { MIGRATIONS } from '../../../migrations';
import { DeckRepository } from './decks/deck.repository';
import { AdminController } from './admin/admin.controller';
import { AdminAuth } from './admin/admin-auth';
import { AdminSessionController } from './admin/admin-session.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { AdminViewService } from './admin/admin-view.service';
import { AdminHistoryController } from './admin/admin-history.controller';
import { AdminHistoryService } from './admin/admin-history.service';
import { DEFAULT_REFUSALS_KEPT_DAYS, DEFAULT_REFUSALS_PER_ROOM_PER_MINUTE, RefusalRecorder } from './refusals/refusal-recorder';
import { RetentionPruner } from './retention/retention-pruner';
import { decksKeptDays, DEFAULT_RETENTION_BATCH_ROWS, finishedGamesKeptDays, resultsKeptDays } from './retention/retention-windows';
import { DecksController } from './api/decks.controller';
import { DecksService } from './decks/decks.service';
import { ImageEncoder } from './images/image-encoder';
import { ImagesController } from './images/images.controller';
import { ImagesService } from './images/images.service';
import { HealthController } from './api/health.controller';
import { HttpErrorsFilter } from './api/http-errors.filter';
import { LeaderboardController } from './api/leaderboard.controller';
import { resultsController } from './api/results.controller';
import { roomsController } from './api/rooms.controller';
import { roomAliasControllers } from './api/room-alias.controller';
import { BuildInfo, readBuildInfo } from './config/build-info';
import { InstanceHeartbeat } from './cluster/instance-heartbeat';
import { InstanceIdentity } from './cluster/instance-identity';
import { DatabaseLink } from './cluster/database-link';
import { JsonLog } from './config/json-log';
import { LiveRoomCap } from './limits/live-room-cap';
import { Admission } from './limits/admission';
import { AdmissionGuard } from './limits/admission.guard';
import { AnonymousWork } from './limits/anonymous-work';
import { FrontDoor } from './limits/front-door';
import { AddressLimits } from './limits/address-limits';
import { InstanceBudgets } from './limits/instance-budgets';
import { configOf, ServerConfig, statementTimeoutMs } from './config/server-config';
import { GameRegistry, GameRoomsGames, serverCodes } from './rooms/games';
import { RoomsService } from './rooms/rooms.service';
import { GAME_ROOMS_RUNS_ITSELF, GAME_ROOMS_RUNTIME, GameRoomsLifecycle } from './game-rooms.lifecycle';
import { BUILD_INFO, CLOCK, COMMAND_OBSERVER, JSON_LOG, SERVER_CONFIG } from './tokens';

/** What the server is built from. It is opened before Nest starts, so that the migrations have run. */
export interface ServerRuntime {
  readonly config: ServerConfig;
  readonly dataSource: DataSource;
  /** PostgreSQL's own address, for what needs a session of its own (LISTEN). */
  readonly directUrl: string;
  readonly meter: StatementMeter;
  readonly build: BuildInfo;
  readonly clock: Clock;
  readonly log: JsonLog;
}

/** Where a server given in code finds PostgreSQL. */
export interface GameRoomsDatabase {
  readonly url: string;
  /**
   * PostgreSQL's own address, when `url` is a transaction pooler's. Migrations, commit lanes and
   * LISTEN use it.
   */
  readonly directUrl?: string;
}

/**
 * What `GameRoomsModule.forRoot` takes: the games, and either where the database is, or a runtime.
 * Given the database, the module opens it, runs the migrations it ships, and starts and stops with
 * the Nest app. Given a runtime, the caller opened it and runs it itself, as apps/game-server does
 * with its embedded PostgreSQL and its settings from the environment.
 */
export interface GameRoomsOptions extends GameRoomsGames {
  readonly database?: GameRoomsDatabase;
  /**
   * The server's settings that differ from the defaults. The README's "Configuration" lists them by
   * variable.
   */
  readonly config?: Partial<ServerConfig>;
  readonly clock?: Clock;
  readonly log?: JsonLog;
  readonly build?: BuildInfo;
  /**
   * A runtime that is already open. Whoever opened it starts and stops the server (see
   * apps/game-server/src/server.ts).
   */
  readonly runtime?: ServerRuntime;
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
  ImageRepository,
];

/**
 * Opens what a server configured in code runs on: its settings, its database (migrated), its clock
 * and its log.
 */
async function openRuntime(options: GameRoomsOptions): Promise<ServerRuntime> {
  if (!options.database) throw new Error('GameRoomsModule.forRoot needs `database: { url }` (or an opened `runtime`)');
  const config = configOf({ ...options.config, databaseUrl: options.database.url, databaseDirectUrl: options.database.directUrl });
  const log = options.log ?? new JsonLog(config.logLevel);
  const meter = new StatementMeter();
  const dataSource = await openDataSource(
    {
      url: options.database.url,
      directUrl: options.database.directUrl,
      poolMax: config.poolMax,
      migrations: MIGRATIONS,
      statementTimeoutMs: statementTimeoutMs(config),
      log: (msg) => log.info(msg),
    },
    meter,
  );
  return {
    config,
    dataSource,
    directUrl: options.database.directUrl ?? options.database.url,
    meter,
    build: options.build ?? readBuildInfo(),
    clock: options.clock ?? systemClock,
    log,
  };
}

/** A provider of one thing the runtime holds. */
const fromRuntime = (provide: InjectionToken, pick: (runtime: ServerRuntime) => unknown): Provider => ({
  provide,
  useFactory: pick,
  inject: [GAME_ROOMS_RUNTIME],
});

/**
 * The game-room server as a Nest module: rooms, seats and the journal over HTTP and WebSocket,
 * the operator API, metrics and health, for the games it is given. A Nest app that imports it
 * installs its WebSocket adapter (`gameRoomsAdapter(app)`) before it listens.
 */
@Module({})
export class GameRoomsModule {
  static forRoot(options: GameRoomsOptions): DynamicModule {
    const registry = new GameRegistry(options);
    const runtime: Provider = options.runtime
      ? { provide: GAME_ROOMS_RUNTIME, useValue: options.runtime }
      : { provide: GAME_ROOMS_RUNTIME, useFactory: () => openRuntime(options) };
    const controllers = [
      roomsController(registry),
      ...roomAliasControllers(registry),
      DecksController,
      ImagesController,
      LeaderboardController,
      resultsController(registry),
      HealthController,
      AdminController,
      AdminHistoryController,
      AdminSessionController,
    ];
    return {
      module: GameRoomsModule,
      imports: [prometheusModule()],
      controllers,
      providers: [
        runtime,
        { provide: GameRegistry, useValue: registry },
        fromRuntime(SERVER_CONFIG, (r) => r.config),
        fromRuntime(CLOCK, (r) => r.clock),
        fromRuntime(JSON_LOG, (r) => r.log),
        fromRuntime(BUILD_INFO, (r) => r.build),
        fromRuntime(StatementMeter, (r) => r.meter),
        ...METRIC_PROVIDERS,
        GameMetrics,
        { provide: COMMAND_OBSERVER, useExisting: GameMetrics },
        { provide: WIRE_OBSERVER, useExisting: GameMetrics },
        fromRuntime(
          Database,
          (r) => new Database(r.dataSource, r.meter, statementTimeoutMs(r.config), r.config.commitLanes, r.config.silenceMs),
        ),
        ...REPOSITORIES.map((repo) => ({ provide: repo, useFactory: (db: Database) => new repo(db), inject: [Database] })),
        { provide: JournalStore, useFactory: (journal: JournalRepository) => new JournalStore(journal), inject: [JournalRepository] },
        fromRuntime(SEAT_TOKENS, (r) => new SeatTokens(r.config.tokenSecret)),
        {
          provide: RefusalRecorder,
          useFactory: (r: ServerRuntime, repo: RefusalRepository, metrics: GameMetrics) =>
            new RefusalRecorder(
              repo,
              {
                keptDays: r.config.refusalsKeptDays ?? DEFAULT_REFUSALS_KEPT_DAYS,
                perRoomPerMinute: r.config.refusalsPerRoomPerMinute ?? DEFAULT_REFUSALS_PER_ROOM_PER_MINUTE,
                timeoutMs: statementTimeoutMs(r.config),
              },
              metrics,
              (msg, fields) => r.log.warn(msg, fields),
            ),
          inject: [GAME_ROOMS_RUNTIME, RefusalRepository, GameMetrics],
        },
        AddressLimits,
        InstanceBudgets,
        {
          provide: RetentionPruner,
          useFactory: (r: ServerRuntime, repo: RetentionRepository, decks: DeckRepository, metrics: GameMetrics) =>
            new RetentionPruner(
              repo,
              decks,
              {
                resultsKeptDays: resultsKeptDays(r.config),
                finishedGamesKeptDays: finishedGamesKeptDays(r.config),
                decksKeptDays: decksKeptDays(r.config),
                batchRows: r.config.retentionBatchRows ?? DEFAULT_RETENTION_BATCH_ROWS,
                sweepMs: r.config.retentionSweepMs ?? 0,
                timeoutMs: statementTimeoutMs(r.config),
              },
              metrics,
              (msg, fields) => r.log.warn(msg, fields),
            ),
          inject: [GAME_ROOMS_RUNTIME, RetentionRepository, DeckRepository, GameMetrics],
        },
        LiveRoomCap,
        Admission,
        AdmissionGuard,
        AnonymousWork,
        {
          provide: FrontDoor,
          useFactory: (work: AnonymousWork, log: JsonLog) => new FrontDoor(work, log, controllers),
          inject: [AnonymousWork, JSON_LOG],
        },
        RoomsService,
        DecksService,
        ImagesService,
        { provide: ImageEncoder, useFactory: () => new ImageEncoder() },
        fromRuntime(InstanceIdentity, (r) => new InstanceIdentity(r.config)),
        fromRuntime(DatabaseLink, (r) => new DatabaseLink(r.config.heartbeatMs ?? 0)),
        {
          provide: InstanceHeartbeat,
          useFactory: (
            r: ServerRuntime,
            instances: InstanceRepository,
            identity: InstanceIdentity,
            rooms: RoomsService,
            link: DatabaseLink,
          ) => new InstanceHeartbeat(instances, identity, () => rooms.registry.size, r.config.heartbeatMs ?? 0, r.log, rooms, link),
          inject: [GAME_ROOMS_RUNTIME, InstanceRepository, InstanceIdentity, RoomsService, DatabaseLink],
        },
        { provide: ROOM_DIRECTORY, useExisting: RoomsService },
        fromRuntime(GATEWAY_OPTIONS, (r): GatewayOptions => gatewayOptions(r.config, registry)),
        GameGateway,
        AdminAuth,
        AdminTokenGuard,
        AdminViewService,
        AdminHistoryService,
        // A runtime passed in is started and stopped by whoever opened it. A runtime that the module
        // opened is started and stopped by the Nest app's own start and close.
        GameRoomsLifecycle,
        { provide: GAME_ROOMS_RUNS_ITSELF, useValue: !options.runtime },
        { provide: APP_FILTER, useClass: HttpErrorsFilter },
      ],
    };
  }
}

/** Builds the gateway's limits from the server's settings, with the registry's compact codes. */
function gatewayOptions(config: ServerConfig, registry: GameRegistry): GatewayOptions {
  return {
    ...DEFAULT_GATEWAY_OPTIONS,
    allowedOrigins: config.allowedOrigins,
    sendQueueBytes: config.sendQueueBytes,
    sendQueueFrames: config.sendQueueFrames,
    socketsPerSeat: config.socketsPerSeat,
    maxSockets: config.maxSockets,
    pingIdleMs: config.socketPingIdleMs ?? DEFAULT_GATEWAY_OPTIONS.pingIdleMs,
    pongTimeoutMs: config.socketPongTimeoutMs ?? DEFAULT_GATEWAY_OPTIONS.pongTimeoutMs,
    codes: serverCodes(registry.games),
  };
}
