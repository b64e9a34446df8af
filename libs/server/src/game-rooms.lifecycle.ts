import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { GameGateway } from '@app/gateway';
import { GameMetrics } from '@app/observability';
import { Database, RoomChangeListener } from '@app/persistence';
import { InstanceHeartbeat } from './cluster/instance-heartbeat';
import { InstanceIdentity } from './cluster/instance-identity';
import { RefusalRecorder } from './refusals/refusal-recorder';
import { RetentionPruner } from './retention/retention-pruner';
import { GameRegistry, labelVocabulary } from './rooms/games';
import { RoomsService } from './rooms/rooms.service';
import type { ServerRuntime } from './game-rooms.module';

/** The runtime that the module's providers are built from, with the database opened and migrated. */
export const GAME_ROOMS_RUNTIME = Symbol('GAME_ROOMS_RUNTIME');
/** True when the module opened its runtime itself, so the Nest app's start and close start and stop it. */
export const GAME_ROOMS_RUNS_ITSELF = Symbol('GAME_ROOMS_RUNS_ITSELF');

/** How long a drain waits for the sockets it closed to be gone. */
const SOCKETS_GONE_MS = 2000;

/**
 * Does what a server does once it listens, and undoes it when the server stops. It binds the
 * metrics to the live rooms, runs the instance's heartbeat, prunes refusals and what is past its
 * retention, and LISTENs for rooms that other instances changed. Each step runs once, however often
 * it is asked.
 */
@Injectable()
export class GameRoomsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private stopCounting?: () => void;
  private listener?: RoomChangeListener;
  private started?: Promise<void>;
  private drained?: Promise<void>;
  private released?: Promise<void>;

  constructor(
    @Inject(GAME_ROOMS_RUNTIME) private readonly runtime: ServerRuntime,
    @Inject(GAME_ROOMS_RUNS_ITSELF) private readonly runsItself: boolean,
    private readonly registry: GameRegistry,
    private readonly rooms: RoomsService,
    private readonly metrics: GameMetrics,
    private readonly db: Database,
    private readonly identity: InstanceIdentity,
    private readonly heartbeat: InstanceHeartbeat,
    private readonly refusals: RefusalRecorder,
    private readonly pruner: RetentionPruner,
    private readonly gateway: GameGateway,
    private readonly http: HttpAdapterHost,
  ) {}

  /**
   * Makes the metrics read the live rooms and the pool, and count every statement. The label
   * vocabulary is the games' own.
   */
  observe(): void {
    if (this.stopCounting) return;
    this.metrics.bind(
      { rooms: () => this.rooms.registry.size, pool: () => this.db.poolStats() },
      this.runtime.build,
      labelVocabulary(this.registry.games),
    );
    const metrics = this.metrics;
    this.stopCounting = this.runtime.meter.observe({
      roundTrip: (s) => metrics.roundTrip(s),
      statement: (s, seconds) => metrics.statement(s, seconds),
      acquire: (seconds) => metrics.acquired(seconds),
      settled: (outcome) => metrics.settled(outcome),
    });
  }

  /** Stops counting statements, for a start that failed after `observe`. */
  unobserve(): void {
    this.stopCounting?.();
  }

  /** Starts the instance's own work once it listens on `port`, which its default name and URL need. */
  start(port: number): Promise<void> {
    return (this.started ??= this.starting(port));
  }

  private async starting(port: number): Promise<void> {
    this.observe();
    // The instance's default name needs the port it got, and its first beat writes its registry row.
    this.identity.settle(port);
    // A room's statement written into a link that the heartbeat found dead would wait for the link to
    // come back before anyone could say whether it was recorded. So while the link is down, no
    // statement is written.
    this.db.writeOnlyWhile(() => this.heartbeat.link.reachable() !== false);
    await this.heartbeat.start();
    // The writes delete refused commands past their window as they go, and this call catches up at
    // start.
    await this.refusals.pruneOnce();
    // What is past its retention is removed in batches, on a timer of its own, off every command's path.
    this.pruner.start();
    const log = this.runtime.log;
    this.listener = new RoomChangeListener(
      this.runtime.directUrl,
      (change) => void this.rooms.onRoomChange(change),
      (level, msg) => log[level](msg),
    );
    await this.listener.start();
  }

  /**
   * Drains the server. It takes no new rooms or sockets, lets in-flight commands finish, and closes
   * the sockets with 1001. Then the instance's own work stops.
   */
  drain(): Promise<void> {
    return (this.drained ??= this.draining());
  }

  private async draining(): Promise<void> {
    this.runtime.log.info('server stopping');
    await this.heartbeat.draining();
    await this.rooms.drain(5000);
    this.gateway.closeAll();
    const until = Date.now() + SOCKETS_GONE_MS;
    while (this.gateway.openSockets > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // The refusals of the drain itself are written before the pool goes.
    await this.refusals.stop();
    await this.pruner.stop();
    await this.listener?.stop();
    await this.heartbeat.stop();
    this.unobserve();
  }

  /** Closes the pool and the data source, once the app is closed. */
  release(): Promise<void> {
    return (this.released ??= (async () => {
      await this.db.close();
      await this.runtime.dataSource.destroy();
    })());
  }

  /**
   * A module that opened its own database starts with the Nest app. The app is not listening yet
   * at this point, so the instance is named by the configured port unless `instanceName` is given.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.runsItself) return;
    const address = this.http.httpAdapter?.getHttpServer()?.address() as AddressInfo | null | undefined;
    await this.start(address?.port ?? this.runtime.config.port);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.runsItself) await this.drain();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.runsItself) await this.release();
  }
}
