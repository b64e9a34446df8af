import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Response } from 'express';
import { HealthRepository } from '@app/persistence';
import { BuildInfo } from '../config/build-info';
import { DatabaseLink } from '../cluster/database-link';
import { InstanceIdentity } from '../cluster/instance-identity';
import { RoomsService } from '../rooms/rooms.service';
import { BUILD_INFO } from '../tokens';
import { DescribeHealth, DescribeLiveness, DescribeReadiness } from './api-docs';

/** A readiness check without a heartbeat to read asks PostgreSQL itself, within this. */
const READY_PING_MS = 500;

/**
 * Three answers for three readers (PROTOCOL.md section 11): `/health` for people (the build and
 * the database's distance; 503 while it is unreachable), `/health/live` for an orchestrator that
 * restarts what is stuck (never touches PostgreSQL: an outage must not restart healthy instances),
 * and `/health/ready` for whatever routes traffic (no database, or a drain: send it elsewhere).
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

  /** 200 with the database's round-trip time; 503 while the database cannot be reached. */
  @Get()
  @DescribeHealth()
  async check(@Res() res: Response): Promise<void> {
    // `instance` and `pid` say which of several instances answered (through a proxy, any may).
    const base = { ...this.identity(), version: this.build.version, sha: this.build.sha };
    try {
      // The ping has the statement time limit of every query: a silent database is a 503 in time.
      const roundTripMs = await this.health.ping();
      res.status(200).json({ status: 'ok', ...base, db: { ok: true, roundTripMs: Math.round(roundTripMs * 100) / 100 } });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', ...base, db: { ok: false, error: err instanceof Error ? err.message : String(err) } });
    }
  }

  /** Answered from memory: that it answers at all is the point. */
  @Get('live')
  @DescribeLiveness()
  live() {
    return { status: 'live', ...this.identity() };
  }

  /** From the heartbeat's last beat (no query of its own when the instance beats on a timer). */
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
