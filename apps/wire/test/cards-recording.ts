import { CompactProfile } from '@app/protocol';
import { outboundEvent } from '@app/room-engine';
import { SocketEncoder } from '@app/gateway';
import { WIRE_CODES } from '@app/wire-codes';
import { prng, TableSim, wildHuman } from '../../../libs/games/cards/test/cards.fixtures';
import { compactStreamOf } from '../../../libs/games/cards/test/cards.wire';

export interface Recording {
  /** The frames the human's socket received, one per line, as `npm run wire -- decode` reads them. */
  readonly text: string;
  readonly frames: number;
  /** What decoding the frames must give, worked out from the events the frames stood for (PROTOCOL.md section 7). */
  readonly expected: readonly unknown[];
}

/**
 * Records `hands` hands of a simulated card table as the human's socket of `profile` received them,
 * through the server's encoder.
 */
export function cardsRecording(profile: CompactProfile, hands: number, seed = 7): Recording {
  const sim = new TableSim({ seed, bots: 5 }, wildHuman, prng(seed));
  sim.runHands(hands, hands * 200);
  const events = sim.frames.get('human')!;
  const encoder = new SocketEncoder(profile, WIRE_CODES);
  const lines: string[] = [];
  for (const e of events) {
    const text = encoder.event(outboundEvent(e.type, e.data), lines.length + 1);
    if (text !== null) lines.push(text);
  }
  return { text: lines.join('\n') + '\n', frames: lines.length, expected: compactStreamOf(events) };
}
