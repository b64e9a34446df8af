import { ReplyFrame } from '@app/protocol';
import { Actor, Signal } from './game-rules';

/** When a command arrived: on the room's clock (for the game) and monotonic (for latency and budgets). */
export interface Arrival {
  /** Clock milliseconds: what scoring and deadlines compare against. */
  readonly at: number;
  /** The scheduler's monotonic ms (performance.now() in production): what latency and the answer budget are measured from. */
  readonly hr: number;
}

/** A command as the engine sees it, whatever the game: an id to answer and a type to count. */
export type Command = { readonly id: string; readonly type: string };

// What waits in a room's mailbox: commands, proposals (a change asked for outside the socket
// protocol), signals (deadlines, presence, outside closes) and the room's own try to resume its clocks.

export interface CommandMessage<C> {
  readonly kind: 'command';
  readonly viewer: Actor;
  readonly command: C;
  readonly arrival: Arrival;
  readonly reply: (r: ReplyFrame) => void;
}
export interface ProposalMessage {
  readonly kind: 'proposal';
  /** The rules' proposal, and its arguments (JSON: they are journaled). */
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
  /** A deadline taken late: when it was due. */
  readonly lateDue?: number;
}
/** The room's clocks hold (its writes failed): it tries a write of its own, which resumes them if it commits. */
export interface ResumeMessage {
  readonly kind: 'resume';
}
export type Message<C> = CommandMessage<C> | ProposalMessage | SignalMessage | ResumeMessage;
