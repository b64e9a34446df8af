import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Request } from 'express';
import { OpenRateLimiter } from './open-rate.limiter';

/**
 * On the paths that open a room or a table: counts the open against the client's address before
 * the body is looked at or anything is written. `req.ip` is the TCP peer, or the client a trusted proxy names in
 * `X-Forwarded-For` (TRUSTED_PROXIES, Express's `trust proxy`).
 */
@Injectable()
export class OpenRateGuard implements CanActivate {
  constructor(private readonly limiter: OpenRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.limiter.consume(context.switchToHttp().getRequest<Request>().ip);
    return true;
  }
}
