import { RunningServer } from '../src/server';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';

const ALLOWED = 'http://allowed.example';
const OTHER = 'http://other.example';

/** A browser's preflight: OPTIONS with the Origin and the method (and headers) it means to use. */
function preflight(server: RunningServer, path: string, origin: string, method = 'POST'): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, authorization' },
  });
}

/** Every CORS header of a response, by name. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers.entries()].filter(([name]) => name.startsWith('access-control-')));
}

function varies(res: Response): string[] {
  return (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
}

/** Issue 8, item 4: ALLOWED_ORIGINS governs the HTTP API's CORS as it governs sockets. */
describe('CORS for /api', () => {
  describe('with ALLOWED_ORIGINS set', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s));

    it('answers a preflight from an allowed origin with that origin, the methods and the headers', async () => {
      const res = await preflight(server, '/api/rooms', ALLOWED);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(varies(res)).toContain('origin');
      expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      // Seat tokens travel in the Authorization header, never in cookies.
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('lets the allowed origin read the answer to the request itself', async () => {
      const res = await fetch(`${server.url}/api/rooms`, {
        method: 'POST',
        headers: { origin: ALLOWED, 'content-type': 'application/json' },
        body: JSON.stringify({ hostName: 'Host' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(varies(res)).toContain('origin');
      const { code } = (await res.json()) as { code: string };
      const read = await fetch(`${server.url}/api/rooms/${code}`, { headers: { origin: ALLOWED } });
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    });

    it('gives any other origin no CORS headers at all', async () => {
      const res = await preflight(server, '/api/rooms', OTHER);
      expect(corsHeaders(res)).toEqual({});
      const read = await fetch(`${server.url}/api/decks`, { headers: { origin: OTHER } });
      expect(read.status).toBe(200);
      expect(corsHeaders(read)).toEqual({});
      // The refusal depends on the Origin too, so no cache may serve it to an allowed origin.
      expect(varies(read)).toContain('origin');
    });

    it('adds nothing for a request without an Origin (native apps, curl)', async () => {
      const res = await fetch(`${server.url}/api/decks`);
      expect(res.status).toBe(200);
      expect(corsHeaders(res)).toEqual({});
    });

    it('opens only /api: the console API, /health and /metrics stay same-origin', async () => {
      for (const path of ['/admin/api/overview', '/health', '/metrics']) {
        const res = await preflight(server, path, ALLOWED, 'GET');
        expect([path, corsHeaders(res)]).toEqual([path, {}]);
      }
      const overview = await fetch(`${server.url}/admin/api/overview`, {
        headers: { origin: ALLOWED, authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(overview.status).toBe(200);
      expect(corsHeaders(overview)).toEqual({});
    });
  });

  describe('with ALLOWED_ORIGINS empty (any origin may open a socket)', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { allowedOrigins: [] });

    it('answers a preflight from any origin, echoing it', async () => {
      for (const origin of [ALLOWED, OTHER]) {
        const res = await preflight(server, '/api/rooms/ABCDEF/players', origin);
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(varies(res)).toContain('origin');
      }
    });
  });
});
