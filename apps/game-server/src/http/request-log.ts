import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { JsonLog, logContext } from '@app/server';
import { ROOM_ALIASES } from '../games';

// A room's code where a request names it: the rooms' paths and their aliases (the registry's), or `room=`.
const ROOM_IN_PATH = new RegExp(`^/api/(?:${['rooms', ...Object.keys(ROOM_ALIASES)].join('|')})/([A-Za-z0-9]{1,16})(?:[/?]|$)`);
const ROOM_IN_QUERY = /[?&]room=([A-Za-z0-9]{1,16})(?:&|$)/;

/** The room code a request names, upper case as the server keeps it; undefined when it names none. */
export function roomOf(url: string): string | undefined {
  return (ROOM_IN_PATH.exec(url)?.[1] ?? ROOM_IN_QUERY.exec(url)?.[1])?.toUpperCase();
}

/**
 * A 503 with `Retry-After` is a refusal the server chose (overloaded, a budget spent, PostgreSQL
 * away), already counted in /metrics: under a flood there are thousands a second, and a warn line
 * for each would spend the event loop that the refusal protects.
 */
function isRefusal(res: ServerResponse): boolean {
  return res.statusCode === 503 && res.hasHeader('Retry-After');
}

/**
 * Gives every HTTP request an id (answered in `X-Request-Id`, so a player's report can be found
 * in the log) and serves it inside a log context: each line written while it is served carries
 * `reqId`, and `room` when the request names one. The request's own line (pino-http) is debug,
 * or warn for a 5xx other than a refusal (`isRefusal`); it names the method, the path without its
 * query (a console link holds a token there), the status and the time taken, never a header
 * (cookies, bearer tokens).
 */
export function requestLog(log: JsonLog) {
  const http = pinoHttp({
    logger: log.logger,
    // Our own id, never the client's: a forged one could pass for another request's.
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
