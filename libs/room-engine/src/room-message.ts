import { ReplyFrame } from '@app/protocol';
import { Actor, Signal } from './game-rules';

/** When a command arrived, on two clocks: the room's clock for the game, and a monotonic one for latency and budgets. */
export interface Arrival {
  /** The room's clock in milliseconds. Scoring and deadlines compare against it. */
  readonly at: number;
  /**
   * The scheduler's monotonic ms (performance.now() in production). Latency and the answer budget
   * are measured from it.
   */
  readonly hr: number;
}

/** A command as the engine sees it, whatever the game: an id to answer, and a type to count. */
export type Command = { readonly id: string; readonly type: string };

// These are what waits in a room's mailbox: commands, proposals (changes that arrived outside the
// socket protocol), signals (deadlines, presence, outside closes), and the room's own attempt to
// resume its clocks.

export interface CommandMessage<C> {
  readonly kind: 'command';
  readonly viewer: Actor;
  readonly command: C;
  readonly arrival: Arrival;
  readonly reply: (r: ReplyFrame) => void;
}
export interface ProposalMessage {
  readonly kind: 'proposal';
  /** The rules' proposal, and its arguments. The arguments must be JSON because they are journaled. */
  readonly name: string;
  readonly args: unknown;
  readonly arrival: Arrival;
  readonly done: (err: unknown, reply?: unknown) => void;
}
export interface SignalMessage {
  readonly kind: 'signal';
  readonly signal: Signal;
  /** For a deadline, the moment it is taken at: when it was due, or now for a late one. */
  readonly at?: number;
  /** For a deadline taken late, when it was due. */
  readonly lateDue?: number;
}
/**
 * Sent while the room's clocks are held because its writes failed. The room tries a write of its
 * own, which resumes the clocks if it commits.
 */
export interface ResumeMessage {
  readonly kind: 'resume';
}
export type Message<C> = CommandMessage<C> | ProposalMessage | SignalMessage | ResumeMessage;
