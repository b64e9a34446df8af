import { timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Request } from 'express';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';

/**
 * Everything under /admin/api needs the operator's token: `Authorization: Bearer <token>`, or
 * `?token=` on the push stream (an EventSource cannot set headers). 401 otherwise.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SERVER_CONFIG) config: ServerConfig) {
    this.expected = Buffer.from(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const query = typeof req.query.token === 'string' ? req.query.token : undefined;
    const given = Buffer.from(bearer ?? query ?? '');
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return true;
    throw new RoomException(RoomErrorCode.Unauthorized, 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>');
  }
}
