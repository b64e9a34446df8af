import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Response } from 'express';
import { HealthRepository } from '@app/persistence';
import { BuildInfo } from '../config/build-info';
import { DatabaseLink } from '../cluster/database-link';
import { InstanceIdentity } from '../cluster/instance-identity';
import { RoomsService } from '../rooms/rooms.service';
import { BUILD_INFO } from '../tokens';
import { DescribeHealth, DescribeLiveness, DescribeReadiness } from './api-docs';

/** When a readiness check has no heartbeat to read, it asks PostgreSQL itself, waiting at most this long. */
const READY_PING_MS = 500;

/**
 * Gives three answers for three readers (PROTOCOL.md section 11). `/health` is for people: it shows
 * the build and the database's round-trip time, and answers 503 while the database is unreachable.
 * `/health/live` is for an orchestrator that restarts what is stuck. It never touches PostgreSQL,
 * because an outage must not restart healthy instances. `/health/ready` is for whatever routes
 * traffic: with no database, or during a drain, it says to send traffic elsewhere.
 */
@Controller('health')
export class HealthController {
  private readonly startedAt = Date.now();

  constructor(
    private readonly health: HealthRepository,
    @Inject(BUILD_INFO) private readonly build: BuildInfo,
    private readonly instance: InstanceIdentity,
    private readonly link: DatabaseLink,
    private readonly rooms: RoomsService,
  ) {}

  /** Answers 200 with the database's round-trip time, or 503 while the database cannot be reached. */
  @Get()
  @DescribeHealth()
  async check(@Res() res: Response): Promise<void> {
    // `instance` and `pid` say which of several instances answered, since through a proxy any of them
    // may answer.
    const base = { ...this.identity(), version: this.build.version, sha: this.build.sha };
    try {
      // The ping has the same statement time limit as every query, so a silent database turns into a
      // 503 in time.
      const roundTripMs = await this.health.ping();
      res.status(200).json({ status: 'ok', ...base, db: { ok: true, roundTripMs: Math.round(roundTripMs * 100) / 100 } });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', ...base, db: { ok: false, error: err instanceof Error ? err.message : String(err) } });
    }
  }

  /** Answers from memory. The point is that it answers at all. */
  @Get('live')
  @DescribeLiveness()
  live() {
    return { status: 'live', ...this.identity() };
  }

  /** Answers from the heartbeat's last beat. It runs no query of its own when the instance beats on a timer. */
  @Get('ready')
  @DescribeReadiness()
  async ready(@Res() res: Response): Promise<void> {
    const reason = !this.rooms.accepting ? 'draining' : (await this.databaseReachable()) ? undefined : 'database_unavailable';
    if (!reason) {
      res.status(200).json({ status: 'ready', instance: this.instance.name });
      return;
    }
    res.status(503).setHeader('Retry-After', reason === 'draining' ? '5' : '2');
    res.json({ status: 'not_ready', reason, instance: this.instance.name });
  }

  private async databaseReachable(): Promise<boolean> {
    const known = this.link.reachable();
    if (known !== undefined) return known;
    return this.health.ping(READY_PING_MS).then(
      () => true,
      () => false,
    );
  }

  private identity() {
    return { instance: this.instance.name, pid: this.instance.pid, uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000) };
  }
}
