import { FrameDecoder, WireDecodeError, WireProfile } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';

/**
 * Decodes a recording in which each non-empty line of `text` is one frame a socket received, in
 * order. It yields each line's JSON frame as it goes, so a caller can write it out before the next
 * one is decoded. A line that cannot be decoded throws a WireDecodeError that names the line
 * (counting from 1). Empty lines are skipped.
 */
export function* decodedLines(profile: WireProfile, text: string): Generator<string> {
  const decoder = new FrameDecoder(profile, WIRE_CODES);
  let number = 0;
  // This walks the text rather than splitting it, so a large recording is not held in memory twice.
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    number++;
    if (line.trim() === '') continue;
    let json: string;
    try {
      json = JSON.stringify(decoder.decode(line));
    } catch (err) {
      if (err instanceof WireDecodeError) throw new WireDecodeError(`line ${number}: ${err.message}`);
      throw err;
    }
    yield json;
  }
}

/** Returns every line's JSON frame, in order (see decodedLines). */
export function decodeLines(profile: WireProfile, text: string): string[] {
  return [...decodedLines(profile, text)];
}
