import { SeatTokens } from './seat-token';

describe(SeatTokens.name, () => {
  const secret = 'k'.repeat(32);

  it('refuses a secret shorter than 32 characters', () => {
    expect(() => new SeatTokens('k'.repeat(31))).toThrow('TOKEN_SECRET must be at least 32 characters');
    expect(() => new SeatTokens(secret)).not.toThrow();
  });

  // Whoever holds the token can read the claims (docs/protocol.md section 8), so they may hold only what the client already knows.
  it('carries only the room, its code, the role, the seat and the two times', () => {
    const token = new SeatTokens(secret).issue({ roomId: 'r1', code: 'ABCDEF', role: 'player', seat: 'p1' }, 1000);
    const claims = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
    expect(claims).toEqual({
      roomId: 'r1',
      code: 'ABCDEF',
      role: 'player',
      seat: 'p1',
      issuedAt: 1000,
      expiresAt: 1000 + 24 * 3600 * 1000,
    });
  });

  it('refuses claims re-signed with another secret as forged', () => {
    const mine = new SeatTokens(secret);
    const other = new SeatTokens('o'.repeat(32)).issue({ roomId: 'r1', code: 'ABCDEF', role: 'host', seat: 'host' });
    expect(mine.check(other)).toEqual({ ok: false, reason: 'forged' });
  });
});
