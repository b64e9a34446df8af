import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';

// /api/docs: the OpenAPI description generated from the controllers, and its UI served from
// this server alone (no CDN), so it works on a machine without the internet.

type Operation = {
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  requestBody?: unknown;
};

describe('OpenAPI at /api/docs', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));

  async function spec(): Promise<{ openapi: string; paths: Record<string, Record<string, Operation>> }> {
    const res = await fetch(`${server.url}/api/docs-json`);
    expect(res.status).toBe(200);
    return (await res.json()) as { openapi: string; paths: Record<string, Record<string, Operation>> };
  }

  // Each route of PROTOCOL.md section 2 with the statuses docs/protocol.md gives it.
  const ROUTES: [string, string, string[]][] = [
    ['post', '/api/rooms', ['201', '400', '404', '503']],
    ['post', '/api/rooms/{code}/players', ['201', '400', '404', '409', '503']],
    ['post', '/api/rooms/{code}/spectators', ['201', '404']],
    ['get', '/api/rooms/{code}', ['200', '404']],
    ['delete', '/api/rooms/{code}', ['204', '401', '403', '404']],
    ['get', '/api/decks', ['200']],
    ['post', '/api/decks', ['201', '400', '413']],
    ['post', '/api/decks/import', ['201', '400', '413', '415']],
    ['get', '/api/decks/template.csv', ['200']],
    ['get', '/api/decks/{id}', ['200', '403', '404']],
    ['put', '/api/decks/{id}', ['200', '400', '403', '404']],
    ['delete', '/api/decks/{id}', ['204', '403', '404']],
    ['post', '/api/decks/{id}/images', ['201', '400', '403', '404', '409', '413', '429']],
    ['get', '/api/images/{imageId}', ['200', '304', '404']],
    ['delete', '/api/decks/{id}/images/{imageId}', ['204', '403', '404', '409']],
    ['get', '/api/leaderboard', ['200', '400']],
    ['get', '/health', ['200', '503']],
    ['get', '/metrics', ['200']],
  ];

  it.each(ROUTES)('describes %s %s with its responses', async (method, path, statuses) => {
    const op = (await spec()).paths[path]?.[method];
    expect(op).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(statuses));
    for (const status of statuses) expect(op.responses[status].description).toBeTruthy();
  });

  it('gives the shapes: request bodies, success bodies, and errors with their codes', async () => {
    const { openapi, paths } = await spec();
    expect(openapi).toMatch(/^3\./);
    const create = paths['/api/rooms'].post;
    expect(JSON.stringify(create.requestBody)).toContain('secondsPerQuestion');
    expect(JSON.stringify(create.responses['201'].content)).toContain('hostToken');
    const join = paths['/api/rooms/{code}/players'].post;
    expect(join.responses['409'].description).toMatch(/room_full.*game_in_progress.*room_closed/);
    expect(JSON.stringify(join.responses['409'].content)).toContain('statusCode');
    expect(JSON.stringify(paths['/api/decks'].post.requestBody)).toContain('correct');
    expect(JSON.stringify(paths['/api/decks'].post.responses['201'].content)).toContain('editToken');
    expect(JSON.stringify(paths['/api/decks/import'].post.responses['400'].content)).toMatch(/bad_csv.*line.*column/);
    // The operators' API is described too.
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/admin/api/overview', '/admin/api/rooms/{code}/kick']));
    // The overview's admission carries both gates and the commit floor, each with its description.
    const overview = JSON.stringify(paths['/admin/api/overview'].get.responses['200'].content);
    expect(overview).toContain('the gate of new anonymous work');
    expect(overview).toContain('the fastest commit of the last minute');
  });

  it('serves the UI and every file it loads from this server', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('swagger-ui');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^(https?:)?\/\//);
      const asset = await fetch(new URL(ref, `${server.url}/api/docs/`));
      expect([ref, asset.status]).toEqual([ref, 200]);
    }
    // The init script points the UI at the JSON served here.
    const init = await (await fetch(`${server.url}/api/docs/swagger-ui-init.js`)).text();
    expect(init).not.toMatch(/https?:\/\/(?!localhost|127\.0\.0\.1)/);
  });
});
