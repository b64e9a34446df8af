import { createHmac, timingSafeEqual } from 'node:crypto';

/** The console's session cookie: its name, the only path it is sent to, and how long it lasts. */
export const ADMIN_SESSION_COOKIE = 'admin_session';
export const ADMIN_SESSION_PATH = '/admin/api';
export const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;

// `<expiry in epoch ms>.<HMAC-SHA256, base64url>`: nothing else is ever accepted.
const VALUE = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedSession {
  readonly value: string;
  readonly expiresAt: number;
}

/**
 * A console session that needs no memory on the server: the cookie holds its own expiry and an
 * HMAC of it keyed by the admin token. So every instance sharing ADMIN_TOKEN accepts it (the
 * proxy sends the console's requests round robin), and changing the token ends every session.
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

  /** The session's expiry when `value` is one this server issued and it has not expired; else null. */
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
    // The label keeps this MAC from meaning anything anywhere else the token might key one.
    return createHmac('sha256', this.adminToken).update(`admin-session/v1/${expiresAt}`).digest('base64url');
  }
}

/** Every value the Cookie header gives `name` (a browser may send two with the same name, for different paths). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
  }
  return values;
}
