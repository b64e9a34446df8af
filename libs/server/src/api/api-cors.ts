import { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import vary from 'vary';

/** The methods and request headers that a player app on another origin uses against /api. */
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE'];
const HEADERS = 'authorization, content-type';

/**
 * Applies CORS to the player-facing HTTP API by the same rule as the socket's upgrade. An origin in
 * ALLOWED_ORIGINS is echoed back (with `Vary: Origin`). Any other origin gets no CORS headers, so its
 * browser keeps the answer from it. An empty list allows every origin, as it does for sockets. Seat
 * tokens travel in the Authorization header, so credentials (cookies) are never allowed. It takes
 * Node's own request and response, so that the front door can use it ahead of Express.
 */
export function apiCors(
  allowedOrigins: readonly string[],
): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  const allowed = new Set(allowedOrigins);
  const handler = cors({
    origin: (origin, done) => done(null, origin !== undefined && (allowed.size === 0 || allowed.has(origin))),
    methods: METHODS,
    allowedHeaders: HEADERS,
    maxAge: 600,
  });
  return (req, res, next) => {
    // Every answer depends on the Origin, refused ones too, so a shared cache must not hand the answer
    // for one origin to another.
    vary(res, 'Origin');
    handler(req, res, next);
  };
}
