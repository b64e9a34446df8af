import { request as httpRequest } from 'node:http';
import { HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { ADMIN_SESSION_MS, AdminSessions } from '../../../libs/server/src/admin/admin-session';
import { startTestServer, TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { ensurePagesBuilt } from './browser';
import { seatRoom } from './support';

// Issue 20's review findings on a real server: the headers a public site sends on every kind of
// answer, and the console's session cookie that keeps the admin token out of URLs.

const BEARER = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const WAIT_MS = 10_000;

/** The policy as directive name -> its sources. */
function policy(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header).toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** Reads a server-sent event stream until `event: <type>` has come, with a hard timeout. */
async function firstEvent(res: Response, type: string, abort: AbortController): Promise<string> {
  const reader = res.body!.getReader();
  const timer = setTimeout(() => abort.abort(), WAIT_MS);
  let text = '';
  try {
    while (!new RegExp(`^event: ${type}$`, 'm').test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before an ${type} event: ${text}`);
      text += new TextDecoder().decode(value);
    }
    return text;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

describe('security', () => {
  let server: RunningServer;
  let api: HttpApi;
  // The pages' and the console's answers are among those checked.
  beforeAll(() => ensurePagesBuilt(), 120_000);
  withTestServer((s) => {
    server = s;
    api = new HttpApi(server.url);
  });

  describe('headers', () => {
    const host = () => new URL(server.url).host;

    it.each([
      ['a page', 'GET', '/', 200],
      ['a room page', 'GET', '/play/K7QMPD', 200],
      ['the console', 'GET', '/admin/', 200],
      ['a hashed asset', 'GET', null, 200],
      ['an API answer', 'GET', '/api/decks', 200],
      ['an API refusal', 'GET', '/api/rooms/NOPE99', 404],
      ['an admin refusal', 'GET', '/admin/api/overview', 401],
      ['health', 'GET', '/health', 200],
      ['metrics', 'GET', '/metrics', 200],
      ['a body the parser refuses', 'POST', '/api/rooms', 400],
    ])('%s carries the strict policy, nosniff, no referrer, no framing and no X-Powered-By', async (_what, method, path, status) => {
      let target = path;
      if (target === null) target = /src="(\/assets\/[^"]+\.js)"/.exec(await (await fetch(`${server.url}/`)).text())![1];
      const res = await fetch(`${server.url}${target}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{"hostName": ' : undefined,
      });
      expect(res.status).toBe(status);
      const csp = policy(res);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      // Deck pictures from this origin; the editor's preview of a chosen file from a blob: URL.
      expect(csp.get('img-src')).toEqual(["'self'", 'blob:']);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      // The pages' socket: this origin's ws: (and wss: behind TLS), nothing else.
      expect(csp.get('connect-src')).toEqual(["'self'", `ws://${host()}`, `wss://${host()}`]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      // This host only: sibling hosts are not the server's to decide for.
      expect(res.headers.get('strict-transport-security')).toBe('max-age=15552000');
      await res.arrayBuffer();
    });

    it('lets only the API docs page use inline styles and data: images; its scripts are files too', async () => {
      const res = await fetch(`${server.url}/api/docs`);
      expect(res.status).toBe(200);
      const csp = policy(res);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      const html = await res.text();
      // No inline script: every <script> has a src.
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).toEqual([]);
      expect(policy(await fetch(`${server.url}/api/docs-json`)).get('style-src')).toEqual(["'self'"]);
    });

    it('does not let a Host header write into the policy', async () => {
      const header = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: server.port, path: '/', headers: { host: "evil.example; script-src 'unsafe-inline'" } },
          (res) => {
            res.resume();
            resolve(String(res.headers['content-security-policy']));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(header).not.toContain('evil');
      expect(header).toContain("script-src 'self';");
      expect(header).toContain("connect-src 'self' 'self';");
    });
  });

  describe('the console session', () => {
    async function signIn(headers: Record<string, string> = BEARER): Promise<Response> {
      return fetch(`${server.url}/admin/api/session`, { method: 'POST', headers });
    }

    async function sessionCookie(): Promise<string> {
      const res = await signIn();
      expect(res.status).toBe(204);
      return res.headers.getSetCookie()[0].split(';')[0];
    }

    it('signs in with the token as Bearer: 204 and an HttpOnly, SameSite=Strict cookie for /admin/api, for 12 hours', async () => {
      const before = Date.now();
      const res = await signIn();
      expect(res.status).toBe(204);
      const [cookie, ...more] = res.headers.getSetCookie();
      expect(more).toEqual([]);
      const attributes = cookie.split(';').map((a) => a.trim());
      expect(attributes[0]).toMatch(/^admin_session=\d+\.[A-Za-z0-9_-]{43}$/);
      const expires = attributes.find((a) => a.startsWith('Expires='));
      expect(
        attributes
          .filter((a) => a !== expires)
          .slice(1)
          .sort(),
      ).toEqual(['HttpOnly', `Max-Age=${ADMIN_SESSION_MS / 1000}`, 'Path=/admin/api', 'SameSite=Strict']);
      // Expires has whole seconds: it is the same 12 hours, for browsers that read only it.
      expect(Date.parse(expires!.slice('Expires='.length))).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + ADMIN_SESSION_MS);
      expect(Date.parse(expires!.slice('Expires='.length))).toBeLessThanOrEqual(Date.now() + ADMIN_SESSION_MS);
      // Plain http: no Secure, so a phone on a LAN keeps it.
      expect(cookie).not.toMatch(/Secure/i);
      const session = await fetch(`${server.url}/admin/api/session`, { headers: { cookie: attributes[0] } });
      expect(session.status).toBe(200);
      const body = (await session.json()) as { via: string; expiresAt: number };
      expect(body.via).toBe('cookie');
      expect(body.expiresAt).toBeGreaterThanOrEqual(before + ADMIN_SESSION_MS);
      expect(body.expiresAt).toBeLessThanOrEqual(Date.now() + ADMIN_SESSION_MS);
      expect(await (await fetch(`${server.url}/admin/api/session`, { headers: BEARER })).json()).toEqual({
        via: 'bearer',
        expiresAt: null,
      });
    });

    it('marks the cookie Secure when the request came over https (a proxy ending TLS says so)', async () => {
      const res = await signIn({ ...BEARER, 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(204);
      expect(res.headers.getSetCookie()[0]).toMatch(/; Secure/);
    });

    it('refuses to sign in without the token or with a wrong one, and sets no cookie', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer wrong-token' },
        { authorization: `Basic ${TEST_ADMIN_TOKEN}` },
        { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
      ]) {
        const res = await signIn(headers);
        expect([headers, res.status]).toEqual([headers, 401]);
        expect(res.headers.getSetCookie()).toEqual([]);
        expect(await res.json()).toMatchObject({ code: 'unauthorized' });
      }
    });

    it('streams to the cookie: the overview, the rooms and a watched room', async () => {
      const cookie = await sessionCookie();
      const room = await seatRoom(server, ['Ann']);
      const abort = new AbortController();
      const res = await fetch(`${server.url}/admin/api/stream?room=${room.code}`, { headers: { cookie }, signal: abort.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const text = await firstEvent(res, 'room', abort);
      expect(text).toMatch(/^event: overview$/m);
      expect(JSON.parse(/^event: room\n(?:\w+: .*\n)*?data: (.*)$/m.exec(text)![1])).toMatchObject({ code: room.code });
      for (const c of [room.host, ...room.players]) c.close();
    });

    it('refuses a token in the URL with 401, saying to use the cookie or the header, even beside a good credential', async () => {
      const cookie = await sessionCookie();
      for (const [path, headers] of [
        [`/admin/api/stream?token=${TEST_ADMIN_TOKEN}`, {}],
        [`/admin/api/stream?token=${TEST_ADMIN_TOKEN}`, { cookie }],
        [`/admin/api/overview?token=${TEST_ADMIN_TOKEN}`, BEARER],
        [`/admin/api/session?token=${TEST_ADMIN_TOKEN}`, {}],
      ] as const) {
        const res = await fetch(`${server.url}${path}`, { headers });
        expect([path, res.status]).toEqual([path, 401]);
        const body = (await res.json()) as { code: string; message: string };
        expect(body.code).toBe('unauthorized');
        expect(body.message).toMatch(/not taken from a URL.*Authorization: Bearer.*POST \/admin\/api\/session.*cookie/);
      }
      const signIn = await fetch(`${server.url}/admin/api/session?token=${TEST_ADMIN_TOKEN}`, { method: 'POST' });
      expect(signIn.status).toBe(401);
      expect(signIn.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a forged, altered, expired or foreign cookie', async () => {
      const good = (await sessionCookie()).slice('admin_session='.length);
      const [expiry, mac] = good.split('.');
      const forged = {
        'a later expiry': `${Number(expiry) + 86_400_000}.${mac}`,
        'another MAC': `${expiry}.${(mac[0] === 'A' ? 'B' : 'A') + mac.slice(1)}`,
        'signed, but expired': new AdminSessions(TEST_ADMIN_TOKEN).issue(Date.now() - ADMIN_SESSION_MS - 1000).value,
        'signed by another token': new AdminSessions(`${TEST_ADMIN_TOKEN}-other`).issue(Date.now()).value,
        'not a session': 'x'.repeat(2000),
        'the admin token itself': TEST_ADMIN_TOKEN,
      };
      for (const [what, value] of Object.entries(forged)) {
        for (const path of ['/admin/api/overview', '/admin/api/stream', '/admin/api/session']) {
          const res = await fetch(`${server.url}${path}`, { headers: { cookie: `admin_session=${value}` } });
          expect([what, path, res.status]).toEqual([what, path, 401]);
          expect(await res.json()).toMatchObject({
            code: 'unauthorized',
            message: expect.stringMatching(/session has expired or is not valid/),
          });
        }
      }
    });

    it('is valid on every instance that shares the admin token, with nothing shared between them', async () => {
      const cookie = await sessionCookie();
      const other = await startTestServer();
      try {
        const res = await fetch(`${other.url}/admin/api/overview`, { headers: { cookie } });
        expect(res.status).toBe(200);
        expect(await res.json()).toHaveProperty('pool');
      } finally {
        await other.stop();
      }
    });

    it('lets the cookie change something only from the console’s own origin; Bearer from anywhere', async () => {
      const cookie = await sessionCookie();
      const close = async (headers: Record<string, string>) => {
        const room = await api.createRoom({ hostName: 'Host' });
        await api.join(room.code, 'Ann'); // live in this process
        return (await fetch(`${server.url}/admin/api/rooms/${room.code}/close`, { method: 'POST', headers })).status;
      };
      const self = server.url;
      expect(await close({ cookie, origin: 'http://evil.example' })).toBe(403);
      expect(await close({ cookie, origin: 'http://evil.example', 'sec-fetch-site': 'same-site' })).toBe(403);
      expect(await close({ cookie, origin: self, 'sec-fetch-site': 'cross-site' })).toBe(403);
      expect(await close({ cookie })).toBe(403);
      expect(await close({ cookie, 'sec-fetch-site': 'same-origin' })).toBe(204);
      expect(await close({ cookie, origin: self })).toBe(204);
      expect(await close({ ...BEARER, origin: 'http://evil.example' })).toBe(204);
      // Reading needs no origin: the stream and the views are GETs.
      expect((await fetch(`${server.url}/admin/api/rooms`, { headers: { cookie, origin: 'http://evil.example' } })).status).toBe(200);
    });

    it('signs out: 204 and the cookie cleared on its path, whatever the browser held', async () => {
      const cookie = await sessionCookie();
      for (const headers of [{ cookie }, {} as Record<string, string>]) {
        const res = await fetch(`${server.url}/admin/api/session`, { method: 'DELETE', headers });
        expect(res.status).toBe(204);
        const cleared = res.headers.getSetCookie();
        expect(cleared).toHaveLength(1);
        expect(cleared[0]).toMatch(/^admin_session=; Path=\/admin\/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/);
      }
    });
  });
});
