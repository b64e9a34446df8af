import { Injectable } from '@nestjs/common';
import { LaterRefusal } from '@app/protocol';
import { AddressBudget, AddressLimits } from './address-limits';
import { Admission } from './admission';
import { InstanceBudgets } from './instance-budgets';

/**
 * The checks that every anonymous request spends through, in their order (README "Limits"). First,
 * while the instance is overloaded, new work is shed (503 `overloaded`); this check is made only for
 * requests that create work (opening, joining, spectator seats). Second, new anonymous work is shed
 * while the event loop runs late (503 `overloaded`). Then the client's address spends from its
 * budget (429 `rate_limited`), and then the instance spends from its own (503 `overloaded`). The
 * order matters: a shed request spends no allowance, and a request refused for its address spends
 * nothing of the instance's, so one address's flood cannot use up every other client's share.
 */
@Injectable()
export class AnonymousWork {
  constructor(
    private readonly admission: Admission,
    private readonly addresses: AddressLimits,
    private readonly instance: InstanceBudgets,
  ) {}

  /**
   * Spends one request of `surface` from the client at `ip`, and returns its refusal, having spent
   * nothing after the check that refused it. Returns undefined when the request may go on.
   */
  refusal(surface: AddressBudget, ip: string | undefined, createsWork: boolean): LaterRefusal | undefined {
    return (
      (createsWork ? this.admission.sheddingRefusal(1) : undefined) ??
      this.admission.anonymousRefusal() ??
      this.addresses.refusal(surface, ip) ??
      this.instance.refusal(surface)
    );
  }
}

// The requests that the front door has already admitted, with the surface each spent on. The
// routes' guards pass these without spending again.
const admittedAtDoor = new WeakMap<object, AddressBudget>();

export function markAdmittedAtDoor(req: object, surface: AddressBudget): void {
  admittedAtDoor.set(req, surface);
}

/** The surface the front door admitted `req` on, or undefined when it did not see it. */
export function surfaceAdmittedAtDoor(req: object): AddressBudget | undefined {
  return admittedAtDoor.get(req);
}
