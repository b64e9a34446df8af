import { type EventFrame, type ReplyFrame, WIRE_PROFILES, type WireProfile } from '../wire.types.js';
import type { CodeTable } from './code-table.js';
import { type CompactProfile, decodeCompactFrame, WireDecodeError } from './compact-codec.js';
import { WireMemory } from './wire-memory.js';

export type DecodedFrame = ReplyFrame | EventFrame;

/**
 * Turns one socket's received frames back into the JSON frames. It keeps the socket's memory, so
 * feed it every frame of one socket, in order, from the first. Events get the `seq` the server
 * numbered them with. Compact profiles leave `seq` off the wire, because in every profile it
 * counts the events sent on the socket, from 1 without gaps.
 *
 * @example
 * const decoder = new FrameDecoder('compact-v2', WIRE_CODES);
 * socket.onmessage = (e) => handle(decoder.decode(e.data));
 */
export class FrameDecoder {
  readonly profile: WireProfile;
  private readonly memory: WireMemory;
  private seq = 0;

  constructor(profile: WireProfile, table: CodeTable) {
    this.profile = profile;
    this.memory = new WireMemory(table, profile === 'json' ? 'compact-v1' : profile);
  }

  decode(text: string): DecodedFrame {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WireDecodeError('a frame is one JSON text');
    }
    if (this.profile === 'json') return parsed as DecodedFrame;
    const frame = decodeCompactFrame(this.profile as CompactProfile, this.memory, parsed);
    if (frame.type === 'reply') return frame as ReplyFrame;
    const event = frame as Omit<EventFrame, 'seq'>;
    this.memory.remember(event.type, event.data);
    return { type: event.type, seq: ++this.seq, data: event.data };
  }
}

/** The JSON frames a socket of `profile` would have shown, decoded from all the frames it received, in order. */
export function decodeFrames(profile: WireProfile, frames: readonly string[], table: CodeTable): DecodedFrame[] {
  const decoder = new FrameDecoder(profile, table);
  return frames.map((f) => decoder.decode(f));
}

/** Reads a profile this library speaks from a client's or a command line's word. Returns undefined for any other word. */
export function wireProfileOf(word: string | null | undefined): WireProfile | undefined {
  return (WIRE_PROFILES as readonly string[]).includes(word ?? '') ? (word as WireProfile) : undefined;
}
