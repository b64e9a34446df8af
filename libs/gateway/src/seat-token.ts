import { createHmac, timingSafeEqual } from 'node:crypto';
import { Role } from '@app/protocol';

/** What a token grants: one room, one seat, one role. */
export interface SeatClaims {
  readonly roomId: string;
  readonly code: string;
  readonly role: Role;
  /** The player id for a player, `host` for the host, or a spectator id for a spectator. */
  readonly seat: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export type TokenCheck =
  { ok: true; claims: SeatClaims } | { ok: false; reason: 'malformed' | 'forged' } | { ok: false; reason: 'expired'; claims: SeatClaims };

/**
 * Signed seat tokens of the form base64url(claims) "." base64url(HMAC-SHA256). A client can
 * neither forge nor alter one. A token stays valid for reconnects while the room lives, up to its
 * expiry.
 */
export class SeatTokens {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 24 * 3600,
  ) {
    if (secret.length < 32) throw new Error('TOKEN_SECRET must be at least 32 characters');
  }

  issue(claims: Omit<SeatClaims, 'issuedAt' | 'expiresAt'>, now = Date.now()): string {
    const full: SeatClaims = { ...claims, issuedAt: now, expiresAt: now + this.ttlSeconds * 1000 };
    const body = Buffer.from(JSON.stringify(full)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  check(token: string | null | undefined, now = Date.now()): TokenCheck {
    if (!token || token.length > 2048) return { ok: false, reason: 'malformed' };
    const dot = token.indexOf('.');
    if (dot <= 0) return { ok: false, reason: 'malformed' };
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
    let claims: SeatClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SeatClaims;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (now >= claims.expiresAt) return { ok: false, reason: 'expired', claims };
    return { ok: true, claims };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

/**
 * Whether the `room` a client put in the WebSocket URL beside its token names the token's room.
 * The client adds it for the proxy to route by (PROTOCOL.md section 10). No `room` at all is fine,
 * because a single instance needs none. A code for another room is refused at the upgrade, so a
 * proxy that routed by it can never attach a socket to a room its instance should not serve. Codes
 * are compared ignoring case.
 */
export function roomMatches(claims: Pick<SeatClaims, 'code'>, asked: string | null): boolean {
  return asked === null || asked.trim().toUpperCase() === claims.code;
}
