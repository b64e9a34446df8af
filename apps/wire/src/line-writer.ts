import { once } from 'node:events';

// Lines are handed to the stream in batches of about this many characters. That makes one write per
// batch rather than per line, and the writer never holds more than one batch.
const BATCH_CHARS = 64 * 1024;

/**
 * Writes lines to a stream, honouring its backpressure. When the stream's buffer is full (as with a
 * pipe to a slow reader), it waits for 'drain' before taking more. A large decode therefore holds
 * one batch in memory, not its whole output.
 *
 * @example
 * const out = new LineWriter(process.stdout);
 * for (const line of lines) await out.line(line);
 * await out.end();
 */
export class LineWriter {
  private batch = '';

  constructor(private readonly out: NodeJS.WritableStream) {}

  async line(text: string): Promise<void> {
    this.batch += `${text}\n`;
    if (this.batch.length >= BATCH_CHARS) await this.flush();
  }

  /** Resolves once every line so far has been handed to the stream's file (for a pipe, to the pipe). */
  async end(): Promise<void> {
    await this.flush();
    await flushed(this.out);
  }

  private async flush(): Promise<void> {
    const chunk = this.batch;
    this.batch = '';
    if (chunk !== '' && !this.out.write(chunk)) await once(this.out, 'drain');
  }
}

/**
 * Resolves once everything written to `out` so far has left the process. Writes to a pipe are
 * asynchronous, so `process.exit()` before this drops what the pipe has not taken yet.
 */
export function flushed(out: NodeJS.WritableStream): Promise<void> {
  // Writes complete in order, so the callback of an empty write comes after every write before it.
  return new Promise((resolve, reject) => out.write('', (err) => (err ? reject(err) : resolve())));
}
