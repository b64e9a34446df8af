import { RoomErrorCode, retryLater } from '@app/protocol';

/**
 * Bounds how many re-encodings run at once in this process, and how many may wait for their turn.
 * Decoding a large image takes up to 4 bytes per pixel, so the slots bound the memory that uploads
 * take. An upload that finds every slot busy and the queue full is told to come back later (503
 * `overloaded`).
 */
export class EncodingSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.atOnce) this.running++;
    else if (this.waiting.length >= this.maxWaiting) {
      throw retryLater(
        RoomErrorCode.Overloaded,
        'this server is re-encoding as many images as it takes at once; nothing was stored, retry shortly',
        1,
      );
    } else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes to the next waiting upload, if there is one. Then `running` stays the same,
      // because it now counts that upload.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** How many uploads are waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }
}
