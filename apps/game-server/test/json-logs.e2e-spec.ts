import { JsonLog } from '../../../libs/server/src/config/json-log';
import { RunningServer } from '../src/server';
import { startTestServer } from '../../../test/support/test-server';
import { waitFor } from './support';

type Line = Record<string, unknown>;

/** Issue 32 item 7: the log is JSON lines (pino), each carrying the request's id and the room it names. */
describe('the JSON log of a real server', () => {
  let server: RunningServer;
  const raw: string[] = [];
  const lines = () => raw.map((l) => JSON.parse(l) as Line);

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'debug' }, { log: new JsonLog('debug', (line) => raw.push(line)) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });

  /** The lines written for one request, once its own line (written as the response finishes) is there. */
  async function linesOf(reqId: string): Promise<Line[]> {
    const until = Date.now() + 10_000;
    while (!lines().some((l) => l.reqId === reqId && l.msg === 'request completed')) {
      if (Date.now() > until) throw new Error(`no "request completed" line for ${reqId}:\n${raw.join('\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return lines().filter((l) => l.reqId === reqId);
  }

  it('writes every line as one JSON object with its level, time and message', () => {
    expect(raw.length).toBeGreaterThan(0);
    for (const line of lines())
      expect(line).toMatchObject({
        level: expect.stringMatching(/^(debug|info|warn|error)$/),
        time: expect.any(String),
        msg: expect.any(String),
      });
  });

  it('gives an HTTP request an id, answered in X-Request-Id, on every line written while it is served, with the room code', async () => {
    const opened = await post('/api/rooms', { hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 });
    expect(opened.status).toBe(201);
    const { code } = (await opened.json()) as { code: string };
    const openId = opened.headers.get('x-request-id')!;
    expect(openId).toMatch(/^[0-9a-f-]{36}$/);
    const opening = await linesOf(openId);
    // The room's own line, written by the service, carries the request that opened it.
    expect(opening).toContainEqual(expect.objectContaining({ msg: 'room opened', room: code, reqId: openId, level: 'info' }));
    expect(opening).toContainEqual(
      expect.objectContaining({
        msg: 'request completed',
        reqId: openId,
        req: { method: 'POST', path: '/api/rooms' },
        res: { statusCode: 201 },
      }),
    );

    // A room command over HTTP (a player joins): its line names the room from the path.
    const joined = await post(`/api/rooms/${code.toLowerCase()}/players`, { name: 'Ann' });
    expect(joined.status).toBe(201);
    const joinId = joined.headers.get('x-request-id')!;
    expect(joinId).not.toBe(openId);
    const joining = await linesOf(joinId);
    expect(joining).toContainEqual(
      expect.objectContaining({ msg: 'request completed', reqId: joinId, room: code, res: { statusCode: 201 } }),
    );
    // Each key once per line: the request's id is not written twice.
    for (const line of raw.filter((l) => l.includes(joinId))) expect(line.split('"reqId"')).toHaveLength(2);
  });

  it('never writes a request’s headers or query (a console link holds the admin token there)', async () => {
    const res = await fetch(`${server.url}/admin/api/overview?token=secret-in-the-query-0123456789`, {
      headers: { authorization: 'Bearer secret-in-a-header-0123456789', cookie: 'c=secret-cookie' },
    });
    const id = res.headers.get('x-request-id')!;
    const own = await linesOf(id);
    expect(own).toContainEqual(
      expect.objectContaining({ msg: 'request completed', req: { method: 'GET', path: '/admin/api/overview' }, res: { statusCode: 401 } }),
    );
    expect(raw.join('\n')).not.toMatch(/secret-in-the-query|secret-in-a-header|secret-cookie/);
  });

  it('writes lines outside any request without a request id', () => {
    const started = lines().find((l) => l.msg === 'server started');
    expect(started).toBeDefined();
    expect(started!.reqId).toBeUndefined();
  });
});

/**
 * A refusal the server chose (503 with Retry-After) is counted in /metrics; a refusal at the front door
 * has one log line, at debug, so a flood of them writes nothing at warn.
 */
describe('the JSON log of refusals', () => {
  let server: RunningServer;
  const raw: string[] = [];

  beforeAll(async () => {
    // One opening a minute for the whole instance: the second is refused.
    server = await startTestServer(
      { logLevel: 'debug', instanceOpensPerMinute: 1 },
      { log: new JsonLog('debug', (line) => raw.push(line)) },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('writes a 503 with Retry-After at debug, not warn', async () => {
    const open = () =>
      fetch(`${server.url}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 }),
        signal: AbortSignal.timeout(10_000),
      });
    expect((await open()).status).toBe(201);
    const refused = await open();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Refused at the door, before the request log gives requests their id.
    expect(refused.headers.get('x-request-id')).toBeNull();
    const line = () => raw.map((l) => JSON.parse(l) as Line).find((l) => l.msg === 'refused at the door');
    await waitFor(async () => line() !== undefined, 'the line of the refusal');
    expect(line()).toMatchObject({ level: 'debug', method: 'POST', path: '/api/rooms', statusCode: 503, code: 'overloaded' });
    expect(raw.filter((l) => l.includes('/api/rooms')).map((l) => (JSON.parse(l) as Line).level)).not.toContain('warn');
  });
});
