import { Clock } from '../src/clock';
import { RoomActorDeps } from '../src/room-actor';
import { RoomStore } from '../src/room-store';
import { VirtualScheduler } from '../src/virtual-scheduler';

/** A room actor's dependencies for a spec on virtual time: small bounds, a fixed seed, quiet logs. */
export function actorDeps(
  store: RoomStore,
  time: { readonly clock: Clock; readonly scheduler: VirtualScheduler },
  overrides: Partial<RoomActorDeps> = {},
): RoomActorDeps {
  return {
    store,
    clock: time.clock,
    scheduler: time.scheduler,
    observer: { command: () => undefined },
    mailboxDepth: 8,
    passivateAfterMs: 60_000,
    commandBudgetMs: 1000,
    seed: 7,
    committedStatements: 0,
    onDispose: () => undefined,
    log: () => undefined,
    ...overrides,
  };
}
