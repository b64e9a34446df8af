import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Request } from 'express';
import { AdminAuth } from './admin-auth';

/**
 * Everything under /admin/api needs the operator: `Authorization: Bearer <token>` or the
 * console's session cookie (admin-auth.ts). 401 otherwise, and for any `?token=`.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly auth: AdminAuth) {}

  canActivate(context: ExecutionContext): boolean {
    this.auth.authenticate(context.switchToHttp().getRequest<Request>());
    return true;
  }
}
