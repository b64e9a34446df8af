import { createHmac, timingSafeEqual } from 'node:crypto';

/** The console's session cookie: its name, the only path it is sent to, and how long it lasts. */
export const ADMIN_SESSION_COOKIE = 'admin_session';
export const ADMIN_SESSION_PATH = '/admin/api';
export const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;

// A session's value is `<expiry in epoch ms>.<HMAC-SHA256, base64url>`, and nothing else is ever accepted.
const VALUE = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedSession {
  readonly value: string;
  readonly expiresAt: number;
}

/**
 * Console sessions that need no memory on the server. The cookie holds its own expiry and an HMAC
 * of that expiry, keyed by the admin token. So every instance that shares ADMIN_TOKEN accepts the
 * cookie, which matters because the proxy sends the console's requests round robin. Changing the
 * token ends every session.
 */
export class AdminSessions {
  constructor(
    private readonly adminToken: string,
    readonly lifetimeMs = ADMIN_SESSION_MS,
  ) {}

  issue(now: number): IssuedSession {
    const expiresAt = Math.floor(now) + this.lifetimeMs;
    return { value: `${expiresAt}.${this.mac(expiresAt)}`, expiresAt };
  }

  /** Returns the session's expiry when `value` is a session this server issued that has not expired, else null. */
  verify(value: string, now: number): number | null {
    const parts = VALUE.exec(value);
    if (!parts) return null;
    const expiresAt = Number(parts[1]);
    const given = Buffer.from(parts[2]);
    const expected = Buffer.from(this.mac(expiresAt));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return expiresAt > now ? expiresAt : null;
  }

  private mac(expiresAt: number): string {
    // The label makes sure that this MAC means nothing anywhere else the token might key a MAC.
    return createHmac('sha256', this.adminToken).update(`admin-session/v1/${expiresAt}`).digest('base64url');
  }
}

/**
 * Returns every value that the Cookie header gives `name`. A browser may send two cookies with the
 * same name, for different paths.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}
