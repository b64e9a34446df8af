import { ADMIN_SESSION_MS, AdminSessions, cookieValues } from './admin-session';

const TOKEN = 'an-admin-token-of-more-than-32-characters';
const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);

describe(AdminSessions.name, () => {
  const sessions = new AdminSessions(TOKEN);

  it('accepts what it issued until its expiry, 12 hours on, and not a millisecond after', () => {
    const { value, expiresAt } = sessions.issue(NOW);
    expect(expiresAt).toBe(NOW + ADMIN_SESSION_MS);
    expect(ADMIN_SESSION_MS).toBe(12 * 3600 * 1000);
    expect(value).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(sessions.verify(value, NOW)).toBe(expiresAt);
    expect(sessions.verify(value, expiresAt - 1)).toBe(expiresAt);
    expect(sessions.verify(value, expiresAt)).toBeNull();
  });

  it('is accepted by another instance with the same token (no memory), refused by one with another token', () => {
    const { value } = sessions.issue(NOW);
    expect(new AdminSessions(TOKEN).verify(value, NOW)).not.toBeNull();
    expect(new AdminSessions(TOKEN + 'x').verify(value, NOW)).toBeNull();
  });

  it('refuses a value whose expiry was moved, whose MAC was changed, or that is not a session at all', () => {
    const { value, expiresAt } = sessions.issue(NOW);
    const mac = value.split('.')[1];
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    for (const forged of [
      `${expiresAt + 3_600_000}.${mac}`,
      `${expiresAt}.${flipped}`,
      `${expiresAt}.${mac}x`,
      `${expiresAt}`,
      '',
      'x'.repeat(4096),
      `${expiresAt}.${mac}.${mac}`,
      ` ${value}`,
    ]) {
      expect([forged.slice(0, 40), sessions.verify(forged, NOW)]).toEqual([forged.slice(0, 40), null]);
    }
  });
});

describe(cookieValues.name, () => {
  it('finds every value of one cookie among others, and nothing in a missing or odd header', () => {
    expect(cookieValues('a=1; admin_session=v1; b=2;admin_session=v2', 'admin_session')).toEqual(['v1', 'v2']);
    expect(cookieValues('xadmin_session=1; admin_sessionx=2', 'admin_session')).toEqual([]);
    expect(cookieValues(undefined, 'admin_session')).toEqual([]);
    expect(cookieValues(';;=;admin_session', 'admin_session')).toEqual([]);
  });
});
