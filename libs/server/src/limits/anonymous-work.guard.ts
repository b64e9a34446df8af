import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { Request } from 'express';
import { raised } from '@app/protocol';
import { AddressBudget } from './address-limits';
import { AnonymousWork, surfaceAdmittedAtDoor } from './anonymous-work';

// Each surface guard's surface, so that the front door can read which routes spend on which budget.
const SURFACES = new Map<Type<CanActivate>, AddressBudget>();

/** The surface a guard spends on, or undefined when it is not an anonymous surface's guard. */
export function surfaceOfGuard(guard: unknown): AddressBudget | undefined {
  return SURFACES.get(guard as Type<CanActivate>);
}

/**
 * Makes the guard of one anonymous surface. The guard declares which budget a route spends on. The
 * spending itself is normally done by the front door (front-door.ts), before the body is read: the
 * guard then passes the request. A request the door did not see (a route it does not know) spends
 * here, with the same checks in the same order (AnonymousWork). `req.ip` is the TCP peer, or the
 * client that a trusted proxy names in `X-Forwarded-For` (TRUSTED_PROXIES, Express's `trust proxy`).
 */
export function AnonymousWorkGuard(surface: AddressBudget): Type<CanActivate> {
  @Injectable()
  class Guard implements CanActivate {
    constructor(private readonly work: AnonymousWork) {}

    canActivate(context: ExecutionContext): boolean {
      const req = context.switchToHttp().getRequest<Request>();
      if (surfaceAdmittedAtDoor(req) === surface) return true;
      // The admission guard before this one has shed the request already when the instance is overloaded.
      const refusal = this.work.refusal(surface, req.ip, false);
      if (refusal) throw raised(refusal);
      return true;
    }
  }
  const guard = mixin(Guard);
  SURFACES.set(guard, surface);
  return guard;
}

/**
 * The guard for opening rooms and tables (OPEN_RATE_PER_MINUTE and OPEN_BURST per address, and
 * INSTANCE_OPENS_PER_MINUTE).
 */
export const OpenGuard = AnonymousWorkGuard('open');
export const JoinGuard = AnonymousWorkGuard('join');
export const DeckWriteGuard = AnonymousWorkGuard('deck');
export const LookupGuard = AnonymousWorkGuard('lookup');
export const SpectatorGuard = AnonymousWorkGuard('spectator');
export const ImageGuard = AnonymousWorkGuard('image');
