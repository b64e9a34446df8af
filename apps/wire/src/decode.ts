import { FrameDecoder, WireDecodeError, WireProfile } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';

/** Each non-empty line is one frame a socket received, in order; each output line is its JSON frame. */
export function decodeLines(profile: WireProfile, text: string): string[] {
  const decoder = new FrameDecoder(profile, WIRE_CODES);
  const out: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.stringify(decoder.decode(line)));
    } catch (err) {
      if (err instanceof WireDecodeError) throw new WireDecodeError(`line ${i + 1}: ${err.message}`);
      throw err;
    }
  }
  return out;
}
