import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Request, Response } from 'express';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { Clock } from '@app/room-engine';
import { ServerConfig } from '../config/server-config';
import { CLOCK, SERVER_CONFIG } from '../tokens';
import { ADMIN_SESSION_COOKIE, ADMIN_SESSION_PATH, AdminSessions, cookieValues } from './admin-session';

/** How a request proved that it comes from the operator. */
export type AdminCredential = { readonly via: 'bearer' } | { readonly via: 'cookie'; readonly expiresAt: number };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Checks the two ways the operator proves who they are. Tools, tests and the bench send
 * `Authorization: Bearer <ADMIN_TOKEN>`. The console sends the session cookie that signing in with
 * the token sets, because the console's EventSource cannot send headers. The token itself is never
 * taken from a URL, because proxies' access logs would keep it.
 */
@Injectable()
export class AdminAuth {
  private readonly tokenDigest: Buffer;
  private readonly sessions: AdminSessions;

  constructor(
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.tokenDigest = digest(config.adminToken);
    this.sessions = new AdminSessions(config.adminToken);
  }

  /**
   * Checks every request under /admin/api except signing in and out. Such a request must carry the
   * bearer token or a live session cookie.
   */
  authenticate(req: Request): AdminCredential {
    refuseTokenInUrl(req);
    if (req.headers.authorization !== undefined) {
      this.checkBearer(req);
      return { via: 'bearer' };
    }
    const sent = cookieValues(req.headers.cookie, ADMIN_SESSION_COOKIE);
    const now = this.clock.now();
    const expiresAt = sent.map((v) => this.sessions.verify(v, now)).find((e) => e !== null);
    if (expiresAt === undefined || expiresAt === null) {
      const why =
        sent.length > 0
          ? 'the console session has expired or is not valid; sign in again'
          : 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>, or the console session cookie that POST /admin/api/session sets';
      throw new RoomException(RoomErrorCode.Unauthorized, why);
    }
    refuseCrossOrigin(req);
    return { via: 'cookie', expiresAt };
  }

  /** Signs in: the request sends the token as Bearer, and the answer sets the session cookie. */
  signIn(req: Request, res: Response): void {
    refuseTokenInUrl(req);
    this.checkBearer(req);
    const session = this.sessions.issue(this.clock.now());
    res.cookie(ADMIN_SESSION_COOKIE, session.value, { ...cookieOptions(req), maxAge: this.sessions.lifetimeMs });
  }

  /** Signs out. This always succeeds: whatever session this browser had, the answer clears its cookie. */
  signOut(req: Request, res: Response): void {
    refuseTokenInUrl(req);
    res.clearCookie(ADMIN_SESSION_COOKIE, cookieOptions(req));
  }

  private checkBearer(req: Request): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined)
      throw new RoomException(RoomErrorCode.Unauthorized, 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>');
    // The digests are equal in length whatever was sent, so the comparison gives away nothing about the token.
    if (!timingSafeEqual(digest(bearer), this.tokenDigest))
      throw new RoomException(RoomErrorCode.Unauthorized, 'the server refused this admin token');
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function refuseTokenInUrl(req: Request): void {
  if (req.query.token === undefined) return;
  throw new RoomException(
    RoomErrorCode.Unauthorized,
    'the admin token is not taken from a URL (proxies and access logs keep URLs): send Authorization: Bearer <ADMIN_TOKEN>, or sign in with POST /admin/api/session and send its cookie, as the console does',
  );
}

// SameSite=Strict keeps other sites' requests from carrying the cookie. It does not stop a sibling
// origin of the same site (another port or subdomain), and a plain form POST needs no preflight.
// So a request that only the cookie signs may change something only when it comes from the
// console's own origin.
function refuseCrossOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const sameOrigin = site !== undefined ? site === 'same-origin' : origin !== undefined && hostOf(origin) === req.headers.host;
  if (!sameOrigin) {
    throw new RoomException(
      RoomErrorCode.Forbidden,
      'a request signed by the console session that changes something must come from the console itself; tools send Authorization: Bearer <ADMIN_TOKEN>',
    );
  }
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function cookieOptions(req: Request) {
  // The cookie is Secure only over https, so that a phone on a plain-http LAN can still sign in.
  // Behind a proxy that ends TLS, X-Forwarded-Proto says that the client used https. A client that
  // sends this header falsely only makes its own cookie stricter.
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    .trim()
    .toLowerCase();
  return { path: ADMIN_SESSION_PATH, httpOnly: true, sameSite: 'strict' as const, secure: req.secure || forwarded === 'https' };
}
