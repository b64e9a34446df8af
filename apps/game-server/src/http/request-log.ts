import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { JsonLog, logContext } from '@app/server';
import { ROOM_ALIASES } from '../games';

// Where a request names a room's code: in the rooms' paths and their aliases (from the registry), or
// in `room=`.
const ROOM_IN_PATH = new RegExp(`^/api/(?:${['rooms', ...Object.keys(ROOM_ALIASES)].join('|')})/([A-Za-z0-9]{1,16})(?:[/?]|$)`);
const ROOM_IN_QUERY = /[?&]room=([A-Za-z0-9]{1,16})(?:&|$)/;

/** The room code a request names, upper case as the server keeps it; undefined when it names none. */
export function roomOf(url: string): string | undefined {
  return (ROOM_IN_PATH.exec(url)?.[1] ?? ROOM_IN_QUERY.exec(url)?.[1])?.toUpperCase();
}

/**
 * A 503 with `Retry-After` is a refusal that the server chose (overloaded, a budget spent,
 * PostgreSQL away), and it is already counted in /metrics. Under a flood there are thousands a
 * second, and a warn line for each would spend the event loop that the refusal protects.
 */
function isRefusal(res: ServerResponse): boolean {
  return res.statusCode === 503 && res.hasHeader('Retry-After');
}

/**
 * Gives every HTTP request an id, and serves the request inside a log context. The id is answered
 * in `X-Request-Id`, so that a player's report can be found in the log. Each line written while the
 * request is served carries `reqId`, and `room` when the request names one. The request's own line
 * (from pino-http) is logged at debug, or at warn for a 5xx other than a refusal (`isRefusal`). That
 * line names the method, the path without its query (because a console link holds a token there),
 * the status and the time taken. It never names a header, since headers carry cookies and bearer
 * tokens.
 */
export function requestLog(log: JsonLog) {
  const http = pinoHttp({
    logger: log.logger,
    // The id is always our own, never the client's, because a forged one could pass for another
    // request's id.
    genReqId: (_req: IncomingMessage, res: ServerResponse) => {
      const id = randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    quietReqLogger: true,
    customLogLevel: (_req, res, err) => (err || (res.statusCode >= 500 && !isRefusal(res)) ? 'warn' : 'debug'),
    customProps: (req) => {
      const room = roomOf(req.url ?? '');
      return room ? { room } : {};
    },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: (req.url ?? '').split('?')[0].slice(0, 256) }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    http(req, res);
    const room = roomOf(req.originalUrl);
    logContext.run({ reqId: String(req.id), ...(room ? { room } : {}) }, next);
  };
}
