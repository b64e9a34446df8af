import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { openDataSource, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { Clock, systemClock } from '@app/room-engine';
import {
  apiCors,
  BuildInfo,
  describeApi,
  DECK_CSV_MAX_BYTES,
  gameRoomsAdapter,
  GameRoomsLifecycle,
  InstanceIdentity,
  JsonLog,
  readBuildInfo,
  ServerConfig,
  ServerRuntime,
  statementTimeoutMs,
} from '@app/server';
import { adminConsole } from './admin/admin-console';
import { AppModule } from './app.module';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';
import { peoplePages } from './pages/people-pages';
import { closeOperatorListener, listenForOperators, operatorSurface } from './http/operator-port';
import { putFrontDoorAhead } from './http/front-door-listener';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';

export interface RunningServer {
  readonly app: INestApplication;
  readonly url: string;
  readonly port: number;
  /** Where /metrics and /admin are served when OPERATOR_PORT is set. The public port then answers them with 404. */
  readonly operatorUrl?: string;
  readonly operatorPort?: number;
  readonly databaseUrl: string;
  readonly runtime: ServerRuntime;
  /** Drains and stops. It takes no new connections, lets in-flight commands finish, and closes sockets with 1001. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  readonly log?: JsonLog;
  readonly build?: BuildInfo;
}

/** Opens the database (the embedded one when no DATABASE_URL is set), migrates it, and serves. */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? new JsonLog(config.logLevel);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, (msg) => log.info(msg));
    databaseUrl = embedded.url;
  }
  // Whatever needs a session of its own (migrations, commit lanes, LISTEN) connects straight to PostgreSQL.
  const directUrl = config.databaseDirectUrl ?? databaseUrl;
  const meter = new StatementMeter();
  let dataSource: DataSource;
  try {
    dataSource = await openDataSource(
      {
        url: databaseUrl,
        directUrl,
        poolMax: config.poolMax,
        migrations: MIGRATIONS,
        statementTimeoutMs: statementTimeoutMs(config),
        log: (msg) => log.info(msg),
      },
      meter,
    );
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const runtime: ServerRuntime = {
    config,
    dataSource,
    directUrl,
    meter,
    build: options.build ?? readBuildInfo(),
    clock: options.clock ?? systemClock,
    log,
  };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(runtime), { logger: log, bodyParser: false });
  // For a request from a configured proxy, req.ip is the client the proxy names in X-Forwarded-For.
  // For a request from anyone else, it is the TCP peer.
  app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
  app.use(securityHeaders());
  // Only the player API is for other origins, and its refusals must reach them too. /admin/api
  // belongs to the console, and /health and /metrics are for tools.
  app.use('/api', apiCors(config.allowedOrigins));
  // The anonymous surfaces' budgets are spent ahead of Express, before any middleware, a body read or
  // a line logged, so that a flood's refusals cost the rooms little (FrontDoor).
  putFrontDoorAhead(app, config.allowedOrigins);
  app.use(requestLog(log));
  // This comes before the routes, so that a request for the other port's paths goes no further.
  app.use(operatorSurface(config.operatorPort));
  app.useBodyParser('json', { limit: '1mb' });
  // Text is parsed only for a deck's CSV (POST /api/decks/import). Every other route takes JSON and refuses a string.
  app.useBodyParser('text', { type: ['text/csv', 'text/plain'], limit: DECK_CSV_MAX_BYTES });
  app.use('/admin', adminConsole());
  app.use(peoplePages());
  describeApi(app, runtime.build);
  // This app opened the runtime, so it starts and stops the server's own work (GameRoomsLifecycle) itself.
  const lifecycle = app.get(GameRoomsLifecycle);
  lifecycle.observe();
  app.useWebSocketAdapter(gameRoomsAdapter(app));
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as { port: number };
  let operators: Awaited<ReturnType<typeof listenForOperators>> | undefined;
  try {
    if (config.operatorPort !== undefined)
      operators = await listenForOperators(app.getHttpAdapter().getInstance(), config.operatorPort, config.host);
  } catch (err) {
    // The operator port is taken (EADDRINUSE). Nothing has started yet that a half-open server would
    // leave behind.
    lifecycle.unobserve();
    await app.close();
    await lifecycle.release();
    await embedded?.stop();
    throw new Error(`OPERATOR_PORT ${config.operatorPort} could not be listened on: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const operatorPort = operators ? (operators.address() as { port: number }).port : undefined;
  await lifecycle.start(address.port);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await lifecycle.drain();
      if (operators) await closeOperatorListener(operators);
      await app.close();
      await lifecycle.release();
      await embedded?.stop();
      log.info('server stopped');
    })());
  const identity = app.get(InstanceIdentity);
  log.info('server started', {
    port: address.port,
    operatorPort,
    instance: identity.name,
    pid: identity.pid,
    version: runtime.build.version,
    sha: runtime.build.sha,
    embeddedDatabase: !!embedded,
  });
  const operatorUrl = operatorPort === undefined ? undefined : `http://127.0.0.1:${operatorPort}`;
  return { app, url: `http://127.0.0.1:${address.port}`, port: address.port, operatorUrl, operatorPort, databaseUrl, runtime, stop };
}
