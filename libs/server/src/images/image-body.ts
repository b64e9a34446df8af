import { IncomingMessage } from 'node:http';
import { ImageErrorCode, imageError } from './image.errors';
import { IMAGE_LIMITS } from './image-limits';

/**
 * Returns an upload's Content-Type if it is one of the types an image may be, or null. `image/jpg` is
 * read as JPEG, because it is a common misspelling.
 */
export function imageTypeOf(contentType: string | undefined): string | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const named = type === 'image/jpg' ? 'image/jpeg' : type;
  return (IMAGE_LIMITS.types as readonly string[]).includes(named) ? named : null;
}

/** Refuses a body whose declared length is over `maxBytes` before any of it is read. */
export function refuseDeclaredTooLarge(req: IncomingMessage, maxBytes: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
}

/**
 * Reads the request's body, up to `maxBytes`. A body that goes past that is refused (413) as soon as
 * it does, and no more of it is kept. The caller's answer should then close the connection
 * (`Connection: close`), so that the server does not wait for the rest of the body.
 */
export function readImageBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  refuseDeclaredTooLarge(req, maxBytes);
  // A body parser has already read the body, because its type is one that some parser reads. There
  // is nothing left to read.
  if (req.readableEnded) return Promise.reject(imageError(ImageErrorCode.BadImage, 'the body was already read as another type'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const done = (error?: Error) => {
      if (settled) return;
      settled = true;
      req.off('data', take);
      req.off('end', end);
      req.off('error', done);
      req.off('close', closed);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, length));
    };
    const take = (chunk: Buffer) => {
      length += chunk.length;
      if (length > maxBytes) {
        // Refuse the body now. Whatever arrives until the answer (Connection: close) has gone out is
        // dropped rather than kept. That way the socket closes with nothing unread, because
        // unread bytes would make the socket reset under the answer.
        chunks.length = 0;
        done(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const end = () => done();
    const closed = () => done(new Error('the client went away before its image was read'));
    req.on('data', take);
    req.on('end', end);
    req.on('error', done);
    req.on('close', closed);
  });
}

function tooLarge(maxBytes: number) {
  return imageError(ImageErrorCode.TooLarge, `an image may be at most ${maxBytes / (1024 * 1024)} MiB (${maxBytes} bytes)`);
}
