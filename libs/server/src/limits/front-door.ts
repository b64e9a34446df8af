import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Injectable, RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { LaterRefusal } from '@app/protocol';
import { JsonLog } from '../config/json-log';
import { AddressBudget } from './address-limits';
import { AdmissionGuard } from './admission.guard';
import { AnonymousWork, markAdmittedAtDoor } from './anonymous-work';
import { surfaceOfGuard } from './anonymous-work.guard';

/** One route that spends on an anonymous budget, as its controller declares it. */
export interface DoorRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly surface: AddressBudget;
  /** Whether the route creates work, so that an overloaded instance sheds it (its AdmissionGuard). */
  readonly createsWork: boolean;
}

/**
 * Reads, from the controllers' own decorators, every route guarded by an anonymous surface's guard
 * (anonymous-work.guard.ts). So the door knows the same routes as the guards do, without a second
 * list to keep in step.
 */
export function doorRoutes(controllers: readonly Type[]): DoorRoute[] {
  const routes: DoorRoute[] = [];
  for (const controller of controllers) {
    const base = pathOf(controller);
    const classGuards = guardsOf(controller);
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as unknown;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const guards = [...classGuards, ...guardsOf(handler)];
      const surface = guards.map(surfaceOfGuard).find((s) => s !== undefined);
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (surface === undefined || method === undefined) continue;
      routes.push({
        method: RequestMethod[method],
        pattern: pathPattern(base, pathOf(handler)),
        surface,
        createsWork: guards.includes(AdmissionGuard),
      });
    }
  }
  return routes;
}

function guardsOf(target: object): unknown[] {
  return (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? [];
}

function pathOf(target: object): string {
  const path = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
  if (Array.isArray(path)) throw new Error(`a route guarded by an anonymous budget has one path, not ${path.length}`);
  return path ?? '';
}

/**
 * The pattern of a Nest route's path, matched as Express matches it: any letter case, a trailing
 * slash allowed, and a parameter (`:code`) standing for one segment.
 */
export function pathPattern(base: string, path: string): RegExp {
  const segments = `${base}/${path}`.split('/').filter((s) => s !== '');
  const source = segments.map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return new RegExp(`^/${source}/?$`, 'i');
}

/** What the door needs of the app behind it, to read a request and answer it as the app would. */
export interface DoorSurroundings {
  /** The client's address, read as Express reads `req.ip` (a trusted proxy's X-Forwarded-For, or the TCP peer). */
  readonly clientOf: (req: IncomingMessage) => string | undefined;
  /** Sets the headers that every answer to this request carries: the security headers, and CORS on the API. */
  readonly headers: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The front door of the anonymous surfaces. Under a flood, most requests are refused, and a refusal
 * must cost the event loop little, because the rooms being played share it. So the door is the HTTP
 * server's request listener, ahead of Express: it spends a request's allowances (AnonymousWork) as
 * soon as its headers are in, before Express's router and middleware, before its body is read or
 * parsed, before the request log and before Nest's routing. A refusal is written here as the error
 * filter would write it (`{statusCode, code, message}` with Retry-After and the app's headers). An
 * admitted request goes on to Express, marked, and its route's guards let it through without
 * spending again. A refusal here is counted in /metrics, as every refusal is. It carries no
 * X-Request-Id header, because the request log that sets one never sees it. It is logged only at
 * debug level, with its method, path, status and code.
 */
@Injectable()
export class FrontDoor {
  private readonly routes: ReadonlyMap<string, readonly DoorRoute[]>;

  constructor(
    private readonly work: AnonymousWork,
    private readonly log: JsonLog,
    controllers: readonly Type[],
  ) {
    const byMethod = new Map<string, DoorRoute[]>();
    for (const route of doorRoutes(controllers)) byMethod.set(route.method, [...(byMethod.get(route.method) ?? []), route]);
    this.routes = byMethod;
  }

  /** The route `method` and `path` spend on, or undefined when they spend on no anonymous budget. */
  routeOf(method: string, path: string): DoorRoute | undefined {
    return this.routes.get(method)?.find((r) => r.pattern.test(path));
  }

  /**
   * The HTTP server's request listener: the door, then `app` (Express) for every request it does
   * not refuse. A request whose target is not a plain path (`GET http://host/path`, which no client
   * of ours sends) is not the door's; its route's guard spends for it.
   */
  listener(app: RequestListener, around: DoorSurroundings): RequestListener {
    return (req, res) => {
      const path = requestPath(req.url);
      const route = path === undefined ? undefined : this.routeOf(req.method ?? '', path);
      if (!route) return app(req, res);
      const refusal = this.work.refusal(route.surface, around.clientOf(req), route.createsWork);
      if (!refusal) {
        markAdmittedAtDoor(req, route.surface);
        return app(req, res);
      }
      around.headers(req, res);
      refuse(res, refusal);
      // The path without its query, as the request log writes it. The line is written only at debug.
      this.log.debug('refused at the door', {
        method: req.method,
        path: path?.slice(0, 256),
        statusCode: refusal.httpStatus,
        code: refusal.code,
      });
    };
  }
}

/** The path of a request's target without its query, as Express routes it; undefined when the target is not a path. */
export function requestPath(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith('/')) return undefined;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function refuse(res: ServerResponse, refusal: LaterRefusal): void {
  const body = JSON.stringify({ statusCode: refusal.httpStatus, code: refusal.code, message: refusal.message });
  res.statusCode = refusal.httpStatus;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
  // The body, if any, is left unread. Node discards it before the connection's next request.
  res.end(body);
}
