import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { GameGateway, GameWsAdapter, GATEWAY_OPTIONS, GatewayOptions, SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { Database, openDataSource, RoomChangeListener, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { GameMetrics } from '@app/observability';
import { Clock, systemClock } from '@app/room-engine';
import { adminConsole } from './admin/admin-console';
import { apiCors } from './api/api-cors';
import { describeApi } from './api/openapi';
import { DECK_CSV_MAX_BYTES } from './decks/deck-limits';
import { AppModule, ServerRuntime } from './app.module';
import { BuildInfo, readBuildInfo } from './config/build-info';
import { JsonLog } from './config/json-log';
import { ServerConfig, statementTimeoutMs } from './config/server-config';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';
import { GAMES, labelVocabulary } from './rooms/games';
import { InstanceHeartbeat } from './cluster/instance-heartbeat';
import { RefusalRecorder } from './refusals/refusal-recorder';
import { RetentionPruner } from './retention/retention-pruner';
import { InstanceIdentity } from './cluster/instance-identity';
import { peoplePages } from './pages/people-pages';
import { closeOperatorListener, listenForOperators, operatorSurface } from './http/operator-port';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { RoomsService } from './rooms/rooms.service';

export interface RunningServer {
  readonly app: INestApplication;
  readonly url: string;
  readonly port: number;
  /** Where /metrics and /admin are served when OPERATOR_PORT is set (the public port answers them 404). */
  readonly operatorUrl?: string;
  readonly operatorPort?: number;
  readonly databaseUrl: string;
  readonly runtime: ServerRuntime;
  /** Drains and stops: no new connections, in-flight commands finish, sockets close with 1001. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  readonly log?: JsonLog;
  readonly build?: BuildInfo;
}

/** Opens the database (embedded when no DATABASE_URL is set), migrates, and serves. */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? new JsonLog(config.logLevel);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, (msg) => log.info(msg));
    databaseUrl = embedded.url;
  }
  // What needs a session of its own (migrations, commit lanes, LISTEN) goes straight to PostgreSQL.
  const directUrl = config.databaseDirectUrl ?? databaseUrl;
  const meter = new StatementMeter();
  let dataSource: DataSource;
  try {
    dataSource = await openDataSource(
      { url: databaseUrl, directUrl, poolMax: config.poolMax, migrations: MIGRATIONS, statementTimeoutMs: statementTimeoutMs(config), log: (msg) => log.info(msg) },
      meter,
    );
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const runtime: ServerRuntime = {
    config,
    dataSource,
    meter,
    build: options.build ?? readBuildInfo(),
    clock: options.clock ?? systemClock,
    log,
  };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(runtime), { logger: log, bodyParser: false });
  app.use(requestLog(log));
  app.use(securityHeaders());
  // First of all: a request for the other port's paths goes no further.
  app.use(operatorSurface(config.operatorPort));
  app.useBodyParser('json', { limit: '1mb' });
  // A deck's CSV (POST /api/decks/import); every other route takes JSON and refuses a string.
  app.useBodyParser('text', { type: ['text/csv', 'text/plain'], limit: DECK_CSV_MAX_BYTES });
  // req.ip is the client a configured proxy names in X-Forwarded-For; from anyone else, the TCP peer.
  app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
  app.use('/admin', adminConsole());
  // Only the player API is for other origins: /admin/api is the console's own, /health and /metrics are for tools.
  app.use('/api', apiCors(config.allowedOrigins));
  app.use(peoplePages());
  describeApi(app, runtime.build);
  const rooms = app.get(RoomsService);
  const metrics = app.get(GameMetrics);
  const db = app.get(Database);
  // The label vocabulary is the games' own: a type no game defines is counted as `unknown`.
  metrics.bind({ rooms: () => rooms.registry.size, pool: () => db.poolStats() }, runtime.build, labelVocabulary(GAMES));
  const unobserve = meter.observe({
    roundTrip: (s) => metrics.roundTrip(s),
    statement: (s, seconds) => metrics.statement(s, seconds),
    acquire: (seconds) => metrics.acquired(seconds),
    settled: (outcome) => metrics.settled(outcome),
  });
  app.useWebSocketAdapter(new GameWsAdapter(app, app.get<SeatTokens>(SEAT_TOKENS), app.get<GatewayOptions>(GATEWAY_OPTIONS), rooms, metrics));
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as { port: number };
  let operators: Awaited<ReturnType<typeof listenForOperators>> | undefined;
  try {
    if (config.operatorPort !== undefined) operators = await listenForOperators(app.getHttpAdapter().getInstance(), config.operatorPort, config.host);
  } catch (err) {
    // The operator port is taken (EADDRINUSE): nothing has started yet that a half-open server would leave behind.
    unobserve();
    await app.close();
    await db.close();
    await dataSource.destroy();
    await embedded?.stop();
    throw new Error(`OPERATOR_PORT ${config.operatorPort} could not be listened on: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const operatorPort = operators ? (operators.address() as { port: number }).port : undefined;
  // The instance's default name needs the port it got; its first beat writes its registry row.
  const identity = app.get(InstanceIdentity);
  identity.settle(address.port);
  const heartbeat = app.get(InstanceHeartbeat);
  // A room's statement written into a link the heartbeat found dead would wait for the link to
  // come back before anyone could say whether it was recorded: while it is down, none is written.
  db.writeOnlyWhile(() => heartbeat.link.reachable() !== false);
  await heartbeat.start();
  // Refused commands past their window: the writes delete them as they go, this catches up at start.
  const refusals = app.get(RefusalRecorder);
  await refusals.pruneOnce();
  // What is past its retention goes in batches on a timer of its own, off every command's path.
  const pruner = app.get(RetentionPruner);
  pruner.start();
  const listener = new RoomChangeListener(directUrl, (change) => void rooms.onRoomChange(change), (level, msg) => log[level](msg));
  await listener.start();

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info('server stopping');
      await heartbeat.draining();
      await rooms.drain(5000);
      const gateway = app.get(GameGateway);
      gateway.closeAll();
      const until = Date.now() + 2000;
      while (gateway.openSockets > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // The refusals of the drain itself are written before the pool goes.
      await refusals.stop();
      await pruner.stop();
      await listener.stop();
      await heartbeat.stop();
      unobserve();
      if (operators) await closeOperatorListener(operators);
      await app.close();
      await db.close();
      await dataSource.destroy();
      await embedded?.stop();
      log.info('server stopped');
    })());
  log.info('server started', { port: address.port, operatorPort, instance: identity.name, pid: identity.pid, version: runtime.build.version, sha: runtime.build.sha, embeddedDatabase: !!embedded });
  const operatorUrl = operatorPort === undefined ? undefined : `http://127.0.0.1:${operatorPort}`;
  return { app, url: `http://127.0.0.1:${address.port}`, port: address.port, operatorUrl, operatorPort, databaseUrl, runtime, stop };
}
