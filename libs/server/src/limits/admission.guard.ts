import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Admission } from './admission';
import { surfaceAdmittedAtDoor } from './anonymous-work';

/**
 * Guards the routes that create work (opening rooms and tables, joins, spectators). While the
 * instance is overloaded, it answers 503 `overloaded` before the body is checked or anything is
 * written. It runs before the surface's own guard (anonymous-work.guard.ts), so that a refusal here
 * spends neither the client's allowance nor the instance's. A request that the front door admitted
 * has been through this check there.
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
  constructor(private readonly admission: Admission) {}

  canActivate(context: ExecutionContext): boolean {
    if (surfaceAdmittedAtDoor(context.switchToHttp().getRequest<object>()) === undefined) this.admission.check();
    return true;
  }
}
