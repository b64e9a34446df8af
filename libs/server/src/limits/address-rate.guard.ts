import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { Request } from 'express';
import { AddressBudget, AddressLimits } from './address-limits';

/**
 * A guard that counts the request against one per-address budget before the body is looked at
 * or anything is written. `req.ip` is the TCP peer, or the client a trusted proxy names in
 * `X-Forwarded-For` (TRUSTED_PROXIES, Express's `trust proxy`).
 */
export function AddressRateGuard(budget: AddressBudget): Type<CanActivate> {
  @Injectable()
  class Guard implements CanActivate {
    constructor(private readonly limits: AddressLimits) {}

    canActivate(context: ExecutionContext): boolean {
      this.limits.take(budget, context.switchToHttp().getRequest<Request>().ip);
      return true;
    }
  }
  return mixin(Guard);
}

/** Opening rooms and tables (OPEN_RATE_PER_MINUTE, OPEN_BURST). */
export const OpenRateGuard = AddressRateGuard('open');
export const JoinRateGuard = AddressRateGuard('join');
export const DeckRateGuard = AddressRateGuard('deck');
export const LookupRateGuard = AddressRateGuard('lookup');
export const SpectatorRateGuard = AddressRateGuard('spectator');
