import { CloseCode } from '@app/protocol';
import { outboundEvent, Viewer, Viewers } from './audience';
import { Clock } from './clock';
import { GameRules, Outcome } from './game-rules';

export interface RoomPublisherDeps<S> {
  readonly viewers: Viewers;
  readonly rules: Pick<GameRules<S, never>, 'view' | 'stateEvent'>;
  readonly clock: Clock;
  /** The room as PostgreSQL has it. Viewers are shown this. */
  readonly confirmed: () => S;
  /** Called for a close effect. The room leaves memory once its sockets have been told. */
  readonly close: () => void;
}

/**
 * Tells the room's sockets what confirmed decisions decided, in this order: the events, each to
 * exactly its audience; a fresh view where a client cannot derive the change; then the effects
 * (released seats' sockets are closed with 4003, and every socket is closed with 4004 when the room
 * closes).
 */
export class RoomPublisher<S> {
  constructor(private readonly deps: RoomPublisherDeps<S>) {}

  publish(outcomes: readonly Outcome<S>[]): void {
    const { viewers } = this.deps;
    const now = this.deps.clock.now();
    for (const o of outcomes) for (const e of o.events) viewers.deliver(e);
    if (outcomes.some((o) => o.resync)) for (const v of viewers) this.sendView(v, now);
    for (const o of outcomes) {
      for (const effect of o.effects) {
        if (effect.kind === 'release') {
          for (const seat of effect.seats) {
            for (const v of viewers.ofSeat(seat)) {
              viewers.remove(v);
              v.close(CloseCode.seatGone, 'seat released');
            }
          }
        } else {
          for (const v of viewers) v.close(CloseCode.roomClosed, `room closed: ${effect.reason}`);
          this.deps.close();
        }
      }
    }
  }

  /** Sends the room as this viewer may see it, with the wire profile its socket got. */
  sendView(viewer: Viewer, now: number): void {
    // The profile belongs to the socket, not the game, so the engine says which one the socket got.
    const view = { ...this.deps.rules.view(this.deps.confirmed(), viewer, now), wire: viewer.wire };
    viewer.sendEvent(outboundEvent(this.deps.rules.stateEvent, view));
  }
}
