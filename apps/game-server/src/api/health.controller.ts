import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Response } from 'express';
import { HealthRepository } from '@app/persistence';
import { BuildInfo } from '../config/build-info';
import { BUILD_INFO } from '../tokens';
import { DescribeHealth } from './api-docs';

@Controller('health')
export class HealthController {
  private readonly startedAt = Date.now();

  constructor(
    private readonly health: HealthRepository,
    @Inject(BUILD_INFO) private readonly build: BuildInfo,
  ) {}

  /** 200 with the database's round-trip time; 503 while the database cannot be reached. */
  @Get()
  @DescribeHealth()
  async check(@Res() res: Response): Promise<void> {
    const base = { version: this.build.version, sha: this.build.sha, uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000) };
    try {
      const roundTripMs = await withTimeout(this.health.ping(), 3000);
      res.status(200).json({ status: 'ok', ...base, db: { ok: true, roundTripMs: Math.round(roundTripMs * 100) / 100 } });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', ...base, db: { ok: false, error: err instanceof Error ? err.message : String(err) } });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
