import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Response } from 'express';
import { HealthRepository } from '@app/persistence';
import { BuildInfo } from '../config/build-info';
import { InstanceIdentity } from '../cluster/instance-identity';
import { BUILD_INFO } from '../tokens';
import { DescribeHealth } from './api-docs';

@Controller('health')
export class HealthController {
  private readonly startedAt = Date.now();

  constructor(
    private readonly health: HealthRepository,
    @Inject(BUILD_INFO) private readonly build: BuildInfo,
    private readonly instance: InstanceIdentity,
  ) {}

  /** 200 with the database's round-trip time; 503 while the database cannot be reached. */
  @Get()
  @DescribeHealth()
  async check(@Res() res: Response): Promise<void> {
    // `instance` and `pid` say which of several instances answered (through a proxy, any may).
    const base = { instance: this.instance.name, pid: this.instance.pid, version: this.build.version, sha: this.build.sha, uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000) };
    try {
      // The ping has the statement time limit of every query: a silent database is a 503 in time.
      const roundTripMs = await this.health.ping();
      res.status(200).json({ status: 'ok', ...base, db: { ok: true, roundTripMs: Math.round(roundTripMs * 100) / 100 } });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', ...base, db: { ok: false, error: err instanceof Error ? err.message : String(err) } });
    }
  }
}
