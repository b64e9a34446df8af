import { CanActivate, ExecutionContext, Injectable, mixin, Type } from '@nestjs/common';
import { Request } from 'express';
import { AddressBudget, AddressLimits } from './address-limits';
import { Admission } from './admission';
import { InstanceBudgets } from './instance-budgets';

/**
 * Makes the guard of one anonymous surface, which runs before the body is checked or anything is
 * written (a JSON body has been parsed by the global body parser by then). It does three things in turn. First, new anonymous work is shed while the event loop runs
 * late (503 `overloaded`). Then the client's address spends from its budget (429 `rate_limited`).
 * Then the instance spends from its own budget (503 `overloaded`). The order matters: a shed request
 * spends no allowance, and a request refused for its address spends nothing of the instance's, so
 * one address's flood cannot use up every other client's share. `req.ip` is the TCP peer, or the
 * client that a trusted proxy names in `X-Forwarded-For` (TRUSTED_PROXIES, Express's `trust proxy`).
 */
export function AnonymousWorkGuard(surface: AddressBudget): Type<CanActivate> {
  @Injectable()
  class Guard implements CanActivate {
    constructor(
      private readonly admission: Admission,
      private readonly addresses: AddressLimits,
      private readonly instance: InstanceBudgets,
    ) {}

    canActivate(context: ExecutionContext): boolean {
      this.admission.checkAnonymous();
      this.addresses.take(surface, context.switchToHttp().getRequest<Request>().ip);
      this.instance.take(surface);
      return true;
    }
  }
  return mixin(Guard);
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
