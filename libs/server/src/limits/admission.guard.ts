import { CanActivate, Injectable } from '@nestjs/common';
import { Admission } from './admission';

/**
 * On the routes that create work (opening rooms and tables, joins, spectators): while the instance
 * is overloaded, 503 `overloaded` before the body is read or anything is written. Before the
 * surface's own guard (anonymous-work.guard.ts), so that a refusal here spends none of the
 * client's allowance nor the instance's.
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
  constructor(private readonly admission: Admission) {}

  canActivate(): boolean {
    this.admission.check();
    return true;
  }
}
