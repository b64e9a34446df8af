import { HttpApi } from '@app/bot-kit';
import { TRIVIA_SETTINGS } from '@app/games/trivia';
import { DECK_LIMITS, JoinRoomBody, LeaderboardQuery, NAME_MAX } from '@app/protocol';
import { z } from 'zod';
import { openApiOf } from '../../../libs/server/src/api/schema-docs';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';

// Issue 23: one schema per shape. Each case takes its limit from the schema (never a copy of the
// number), then checks that the server's 400 and /api/docs-json both say that limit: an edit to
// the schema moves all three, and the console's types with them (web-admin/src/lib/http-types.test.ts).

type Schema = {
  type?: string;
  maxLength?: number;
  maximum?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
};
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: { name: string; schema: Schema }[] };

// The console's types are the schemas' inferred types: these lines do not compile if the schema
// and the type part ways (tsc -p tsconfig.json checks this file).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const joinBodyIsTheSchemas: Equal<z.input<typeof JoinRoomBody>, { name: string }> = true;
// @ts-expect-error a join without a name is not a JoinRoomBody
const nameless: z.input<typeof JoinRoomBody> = {};

describe('HTTP shapes: one zod schema validates, documents and types each', () => {
  let server: RunningServer;
  let api: HttpApi;
  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  async function operation(method: string, path: string): Promise<Operation> {
    const doc = (await (await fetch(`${server.url}/api/docs-json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    return doc.paths[path][method];
  }
  const jsonBody = (op: Operation) => op.requestBody!.content['application/json'].schema;

  it('keeps the types beside the schemas', () => {
    expect([joinBodyIsTheSchemas, nameless]).toEqual([true, {}]);
  });

  it("a seat's name: the schema's limit is the 400's and the document's", async () => {
    const max = openApiOf(JoinRoomBody, 'input').properties!.name as Schema;
    expect(max.maxLength).toBe(NAME_MAX);
    const room = await api.createRoom({ hostName: 'Host' });
    const long = await api.request('POST', `/api/rooms/${room.code}/players`, { name: 'n'.repeat(NAME_MAX + 1) });
    expect(long).toMatchObject({ status: 400, body: { code: 'bad_data', message: `name must be 1 to ${NAME_MAX} printable characters` } });
    expect((await api.request('POST', `/api/rooms/${room.code}/players`, { name: 'n'.repeat(NAME_MAX) })).status).toBe(201);
    expect(jsonBody(await operation('post', '/api/rooms/{code}/players')).properties!.name.maxLength).toBe(NAME_MAX);
  });

  it("a deck's questions: the limits of DECK_LIMITS, in the 400 and the document alike", async () => {
    const question = { text: 'Q?', choices: ['a', 'b'], correct: 0 };
    const tooMany = {
      name: 'Big',
      questions: Array.from({ length: DECK_LIMITS.maxQuestions + 1 }, (_, i) => ({ ...question, text: `Q${i}?` })),
    };
    const res = await api.request('POST', '/api/decks', tooMany);
    expect(res).toMatchObject({
      status: 400,
      body: { message: `questions must be an array of ${DECK_LIMITS.minQuestions} to ${DECK_LIMITS.maxQuestions} questions` },
    });
    const body = jsonBody(await operation('post', '/api/decks'));
    expect(body.properties!.questions.maxItems).toBe(DECK_LIMITS.maxQuestions);
    expect(body.properties!.questions.items!.properties!.text.maxLength).toBe(DECK_LIMITS.text);
  });

  it("a game's settings: trivia's questionCount, from the game's own schema, through POST /api/rooms", async () => {
    const count = (openApiOf(TRIVIA_SETTINGS, 'input').properties!.questionCount as Schema).maximum!;
    expect(count).toBeGreaterThan(1);
    const res = await api.request('POST', '/api/rooms', { hostName: 'A', questionCount: count + 1 });
    expect(res).toMatchObject({ status: 400, body: { message: `questionCount must be a whole number from 1 to ${count}` } });
    // zod's union is OpenAPI's anyOf: trivia's settings without `game`, and each game's with it.
    const shapes = jsonBody(await operation('post', '/api/rooms')).anyOf!;
    expect(shapes.map((s) => s.properties!.questionCount?.maximum).filter((m) => m !== undefined)).toEqual([count, count]);
  });

  it("a query: the leaderboard's limit is read as the schema says and shown as an integer with its range", async () => {
    const max = (openApiOf(LeaderboardQuery, 'output').properties!.limit as Schema).maximum!;
    expect((await api.request('GET', `/api/leaderboard?limit=${max}`)).status).toBe(200);
    expect(await api.request('GET', `/api/leaderboard?limit=${max + 1}`)).toMatchObject({
      status: 400,
      body: { message: `limit must be a whole number from 1 to ${max}` },
    });
    const param = (await operation('get', '/api/leaderboard')).parameters!.find((p) => p.name === 'limit')!;
    expect(param.schema).toMatchObject({ type: 'integer', maximum: max });
  });
});
