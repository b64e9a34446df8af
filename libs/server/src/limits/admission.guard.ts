import { CanActivate, Injectable } from '@nestjs/common';
import { Admission } from './admission';

/**
 * Guards the routes that create work (opening rooms and tables, joins, spectators). While the
 * instance is overloaded, it answers 503 `overloaded` before the body is checked or anything is
 * written. It runs before the surface's own guard (anonymous-work.guard.ts), so that a refusal here
 * spends neither the client's allowance nor the instance's.
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
  constructor(private readonly admission: Admission) {}

  canActivate(): boolean {
    this.admission.check();
    return true;
  }
}
