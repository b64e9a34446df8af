import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Request } from 'express';
import { AdminAuth } from './admin-auth';

/**
 * Lets only the operator reach what is under /admin/api. A request must carry
 * `Authorization: Bearer <token>` or the console's session cookie (see admin-auth.ts). Any other
 * request gets 401, and so does any request with a `?token=`.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly auth: AdminAuth) {}

  canActivate(context: ExecutionContext): boolean {
    this.auth.authenticate(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
