import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { cards } from '@app/games/cards';
import { trivia } from '@app/games/trivia';
import { GAMES } from '../rooms/games';

// The OpenAPI description of each route, kept out of the controllers so that they stay a line
// each. Shapes and error codes as docs/protocol.md sections 2 and 8 give them.

const error = (codes: string): SchemaObject => ({
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: codes },
    message: { type: 'string', description: 'for a person; a 400 names the offending field' },
  },
});

const BAD_DATA = { status: 400, description: '`bad_data` (the message names the field) or `bad_json`', schema: error('bad_data | bad_json') };
const NOT_FOUND = { status: 404, description: '`room_not_found`: no room has this code', schema: error('room_not_found') };
const UNAVAILABLE = { status: 503, description: '`database_unavailable`: nothing was recorded, retry later', schema: error('database_unavailable') };
// Opening a room or a table (PROTOCOL.md section 11): both carry Retry-After, in seconds.
const RATE_LIMITED = { status: 429, description: '`rate_limited`: this client address opened too many rooms and tables lately; `Retry-After` says when to try again', schema: error('rate_limited') };
const OPEN_UNAVAILABLE = {
  status: 503,
  description: '`rooms_at_capacity` (this instance holds MAX_LIVE_ROOMS live rooms) or `database_unavailable` (nothing was recorded); `Retry-After` says when to try again',
  schema: error('rooms_at_capacity | database_unavailable'),
};
const CODE = ApiParam({ name: 'code', description: 'the room code, 6 characters; case is ignored', example: 'K7QMPD' });

const deckSummary: SchemaObject = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, builtin: { type: 'boolean' }, questions: { type: 'integer' } },
};

/** Opening a room of each game this server plays: `{game, ...}` with that game's settings. */
function openingBodies(): SchemaObject[] {
  return GAMES.filter((g) => g.opening).map((g) => {
    const schema = g.opening!.schema as SchemaObject;
    return {
      ...schema,
      title: g.kind,
      required: ['game', ...(schema.required ?? [])],
      properties: { game: { type: 'string', enum: [g.kind] }, ...schema.properties },
    };
  });
}

export const DescribeCreateRoom = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({
      summary: 'Open a room of any game: with `game`, that game\'s settings, and the answer carries the opener\'s seat and token; without it, a trivia room in its lobby, and the answer carries the host token',
    }),
    ApiBody({ schema: { oneOf: [{ ...(trivia.opening!.schema as SchemaObject), title: 'trivia (no game)' }, ...openingBodies()] } }),
    ApiResponse({
      status: 201,
      description: 'the room is open',
      schema: {
        oneOf: [
          { title: 'without game', type: 'object', properties: { roomId: { type: 'string', format: 'uuid' }, code: { type: 'string' }, hostToken: { type: 'string' } } },
          {
            title: 'with game',
            type: 'object',
            properties: {
              game: { type: 'string', enum: GAMES.filter((g) => g.opening).map((g) => g.kind) },
              roomId: { type: 'string', format: 'uuid' },
              code: { type: 'string' },
              role: { type: 'string', enum: ['host', 'player'] },
              seat: { type: 'string', description: 'the opener\'s seat: `host`, or the first player\'s id' },
              token: { type: 'string' },
            },
          },
        ],
      },
    }),
    ApiResponse({ ...BAD_DATA, description: '`bad_data` (an unknown `game`; also when the deck has fewer questions than questionCount) or `bad_json`' }),
    ApiResponse({ status: 404, description: '`deck_not_found`', schema: error('deck_not_found') }),
    ApiResponse(RATE_LIMITED),
    ApiResponse(OPEN_UNAVAILABLE),
  );

export const DescribeJoinRoom = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'Take a seat in a room that is in its lobby' }),
    CODE,
    ApiBody({ schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 32, description: 'printable characters, trimmed' } } } }),
    ApiResponse({ status: 201, description: 'seated', schema: { type: 'object', properties: { playerId: { type: 'string', format: 'uuid' }, playerToken: { type: 'string' } } } }),
    ApiResponse(BAD_DATA),
    ApiResponse(NOT_FOUND),
    ApiResponse({ status: 409, description: '`room_full`, `game_in_progress` (also while finished) or `room_closed`', schema: error('room_full | game_in_progress | room_closed') }),
    ApiResponse(UNAVAILABLE),
  );

export const DescribeSpectate = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'A token to watch a room' }),
    CODE,
    ApiBody({ required: false, schema: { type: 'object' } }),
    ApiResponse({ status: 201, description: 'a spectator token', schema: { type: 'object', properties: { spectatorToken: { type: 'string' } } } }),
    ApiResponse(NOT_FOUND),
    ApiResponse({ status: 409, description: '`room_closed`', schema: error('room_closed') }),
  );

export const DescribeRoomSummary = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'The public summary of a room of any game, in its game’s shape (`game` says which); never a secret' }),
    CODE,
    ApiResponse({
      status: 200,
      description: 'the room; a closed room still answers, with phase "closed"',
      // Every registered game's own shape: a new game adds its own by registering.
      schema: { oneOf: GAMES.map((g) => ({ title: g.kind, ...g.schemas.summary }) as SchemaObject) },
    }),
    ApiResponse(NOT_FOUND),
  );

export const DescribeCloseRoom = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'Close a room: every socket closes with 4004. Closing a closed room again is 204' }),
    ApiBearerAuth(),
    CODE,
    ApiResponse({ status: 204, description: 'closed' }),
    ApiResponse({ status: 401, description: '`unauthorized`: no valid token', schema: error('unauthorized') }),
    ApiResponse({ status: 403, description: '`forbidden`: the token is not this room host’s', schema: error('forbidden') }),
    ApiResponse({ ...NOT_FOUND, description: '`room_not_found`, also for a host token of another room' }),
  );

export const DescribeListDecks = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'The decks a host can choose from: the built-in one and those added' }),
    ApiResponse({ status: 200, description: 'the decks', schema: { type: 'object', properties: { decks: { type: 'array', items: deckSummary } } } }),
  );

const deckBody: SchemaObject = {
  type: 'object',
  required: ['name', 'questions'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    questions: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: {
        type: 'object',
        required: ['text', 'choices', 'correct'],
        properties: {
          text: { type: 'string', minLength: 1, maxLength: 300 },
          choices: { type: 'array', minItems: 2, maxItems: 6, items: { type: 'string', minLength: 1, maxLength: 120 }, description: 'all different' },
          correct: { type: 'integer', minimum: 0, description: 'the index of the right choice (0-based)' },
        },
      },
    },
  },
};
const createdDeck: SchemaObject = {
  type: 'object',
  properties: {
    ...deckSummary.properties,
    editToken: { type: 'string', description: 'the right to change or delete this deck, as `Authorization: Bearer`; shown only now, kept by the server only as a hash' },
  },
};
const DECK_ID = ApiParam({ name: 'id', description: 'the deck id (a UUID)', example: '00000000-0000-4000-8000-000000000001' });
const DECK_NOT_FOUND = { status: 404, description: '`deck_not_found`: no deck has this id (also a deleted one, or an id that is not a UUID)', schema: error('deck_not_found') };
const DECK_FORBIDDEN = {
  status: 403,
  description: '`forbidden`: no edit token as `Authorization: Bearer`, or not this deck’s; `deck_read_only`: the built-in deck (or one made before edit tokens), which nobody may change',
  schema: error('forbidden | deck_read_only'),
};
const DECK_BAD_DATA = { ...BAD_DATA, description: '`bad_data` (the message names the field, e.g. questions[0].correct) or `bad_json`' };
const TOO_LARGE = (what: string) => ({ status: 413, description: `\`payload_too_large\`: ${what}`, schema: error('payload_too_large') });

export const DescribeCreateDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'Add a custom deck; the answer carries its edit token, shown this once' }),
    ApiBody({ schema: deckBody }),
    ApiResponse({ status: 201, description: 'the new deck', schema: createdDeck }),
    ApiResponse(DECK_BAD_DATA),
    ApiResponse(TOO_LARGE('a body over 1 MiB')),
    ApiResponse(UNAVAILABLE),
  );

export const DescribeImportDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'Add a deck from a CSV as spreadsheets export it: a header row, then `question,choice1,...,choice6,correct` a row, `correct` 1-based; ' +
        'RFC 4180 quoting, a UTF-8 BOM, CRLF/LF/CR line ends, `;` as the separator when the header row has no comma; blank rows skipped; 1 to 200 questions',
    }),
    ApiQuery({ name: 'name', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 }, description: 'the deck’s name' }),
    ApiBody({ description: 'the CSV, as `text/csv` (or `text/plain`), UTF-8', schema: { type: 'string' }, examples: { template: { value: 'question,choice1,choice2,choice3,choice4,choice5,choice6,correct\r\nWhich planet is known as the red planet?,Venus,Mars,Jupiter,Saturn,,,2\r\n' } } }),
    ApiResponse({ status: 201, description: 'the new deck; `questions` is how many were read', schema: createdDeck }),
    ApiResponse({
      status: 400,
      description: '`bad_csv` naming the first bad cell: `line` of the file (1 = the header; a quoted cell with line breaks spans several) and `column` (1 = the question, 8 = correct in the template); or `bad_data` for the name',
      schema: {
        type: 'object',
        required: ['statusCode', 'code', 'message'],
        properties: { ...(error('bad_csv | bad_data').properties ?? {}), line: { type: 'integer', minimum: 1 }, column: { type: 'integer', minimum: 1 } },
      },
    }),
    ApiResponse(TOO_LARGE('a CSV over 1 MiB')),
    ApiResponse({ status: 415, description: '`unsupported_media_type`: the body is not `text/csv` (or `text/plain`)', schema: error('unsupported_media_type') }),
    ApiResponse(UNAVAILABLE),
  );

export const DescribeDeckTemplate = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'A CSV to start a deck from in a spreadsheet: the header row and three example questions' }),
    ApiResponse({ status: 200, description: 'the template, as an attachment', content: { 'text/csv': { schema: { type: 'string' } } } }),
  );

export const DescribeReadDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'A deck and its questions; the right answers (`correct`) only with its edit token as Bearer' }),
    ApiBearerAuth(),
    DECK_ID,
    ApiResponse({
      status: 200,
      description: 'the deck; `editable` says whether it has an edit token at all',
      schema: {
        type: 'object',
        properties: {
          ...deckSummary.properties,
          editable: { type: 'boolean' },
          questions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { text: { type: 'string' }, choices: { type: 'array', items: { type: 'string' } }, correct: { type: 'integer', description: 'only with the edit token' } },
            },
          },
        },
      },
    }),
    ApiResponse({ ...DECK_FORBIDDEN, description: 'a Bearer token was sent and is not this deck’s edit token (`forbidden`), or the deck has none (`deck_read_only`)' }),
    ApiResponse(DECK_NOT_FOUND),
  );

export const DescribeReplaceDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'Replace a deck’s name and questions with its edit token; a game already playing it keeps its questions' }),
    ApiBearerAuth(),
    DECK_ID,
    ApiBody({ schema: deckBody }),
    ApiResponse({ status: 200, description: 'the deck as it is now', schema: deckSummary }),
    ApiResponse(DECK_BAD_DATA),
    ApiResponse(DECK_FORBIDDEN),
    ApiResponse(DECK_NOT_FOUND),
    ApiResponse(TOO_LARGE('a body over 1 MiB')),
  );

export const DescribeDeleteDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'Delete a deck with its edit token: no longer listed, read or opened; a game already playing it keeps its questions' }),
    ApiBearerAuth(),
    DECK_ID,
    ApiResponse({ status: 204, description: 'deleted' }),
    ApiResponse(DECK_FORBIDDEN),
    ApiResponse(DECK_NOT_FOUND),
  );

export const DescribeLeaderboard = () =>
  applyDecorators(
    ApiTags('results'),
    ApiOperation({ summary: 'The best players over finished games, best total first' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } }),
    ApiResponse({
      status: 200,
      description: 'one entry per seat',
      schema: {
        type: 'object',
        properties: {
          players: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                playerId: { type: 'string', format: 'uuid' },
                name: { type: 'string' },
                games: { type: 'integer' },
                wins: { type: 'integer' },
                totalScore: { type: 'integer' },
                bestScore: { type: 'integer' },
              },
            },
          },
        },
      },
    }),
    ApiResponse({ ...BAD_DATA, description: '`bad_data`: limit out of 1-100' }),
  );

export const DescribeHealth = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({ summary: 'For people: the build, the instance and the database round trip (probes use /health/live and /health/ready)' }),
    ApiResponse({
      status: 200,
      description: 'up, with the database reachable',
      schema: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['ok'] },
          instance: { type: 'string', description: 'this instance\'s stable name (INSTANCE_NAME, default hostname-port)' },
          pid: { type: 'integer' },
          version: { type: 'string' },
          sha: { type: 'string' },
          uptimeSeconds: { type: 'integer' },
          db: { type: 'object', properties: { ok: { type: 'boolean' }, roundTripMs: { type: 'number' } } },
        },
      },
    }),
    ApiResponse({ status: 503, description: 'the database is unreachable: `status: "unavailable"`, `db.ok: false`' }),
  );

export const DescribeLiveness = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({ summary: 'Liveness: 200 while the process can serve its sockets, whether or not PostgreSQL is reachable; never queries it' }),
    ApiResponse({ status: 200, description: '`{status: "live", instance, pid, uptimeSeconds}`' }),
  );

export const DescribeReadiness = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({ summary: 'Readiness: whether this instance should get new traffic (PostgreSQL reachable, not draining)' }),
    ApiResponse({ status: 200, description: '`{status: "ready", instance}`' }),
    ApiResponse({ status: 503, description: '`{status: "not_ready", reason: "database_unavailable" | "draining", instance}`, with `Retry-After`' }),
  );

export const DescribeAdmin = (summary: string, extra: { status: number; description: string }[] = []) =>
  applyDecorators(
    ApiTags('operators'),
    ApiBearerAuth(),
    ApiOperation({ summary }),
    ApiResponse({ status: 401, description: '`unauthorized`: no admin token, or a wrong one', schema: error('unauthorized') }),
    ...extra.map((r) => ApiResponse(r)),
  );


// Card practice tables (PROTOCOL.md section 8).

const TABLE_CODE = ApiParam({ name: 'code', description: 'the table code, 6 characters; case is ignored', example: 'K7QMPD' });
const TABLE_NOT_FOUND = { status: 404, description: '`room_not_found`: no table has this code', schema: error('room_not_found') };

export const DescribeOpenTable = () =>
  applyDecorators(
    ApiTags('tables'),
    ApiOperation({ summary: 'Open a card practice table: one human against bots; the answer carries the player token' }),
    ApiBody({ schema: cards.opening!.schema }),
    ApiResponse({
      status: 201,
      description: 'the table is open',
      schema: { type: 'object', properties: { tableId: { type: 'string', format: 'uuid' }, code: { type: 'string' }, playerToken: { type: 'string' } } },
    }),
    ApiResponse({ ...BAD_DATA, description: '`bad_data` (the message names the field; also a `seed` on a server not started for tests) or `bad_json`' }),
    ApiResponse(RATE_LIMITED),
    ApiResponse(OPEN_UNAVAILABLE),
  );

export const DescribeSpectateTable = () =>
  applyDecorators(
    ApiTags('tables'),
    ApiOperation({ summary: 'A token to watch a table: never a hole card before the showdown' }),
    TABLE_CODE,
    ApiBody({ required: false, schema: { type: 'object' } }),
    ApiResponse({ status: 201, description: 'a spectator token', schema: { type: 'object', properties: { spectatorToken: { type: 'string' } } } }),
    ApiResponse(TABLE_NOT_FOUND),
    ApiResponse({ status: 409, description: '`room_closed`', schema: error('room_closed') }),
  );

export const DescribeTableSummary = () =>
  applyDecorators(
    ApiTags('tables'),
    ApiOperation({ summary: 'The public summary of a table (the card tables’ alias of GET /api/rooms/{code}): seats, stacks, hands played; never a card' }),
    TABLE_CODE,
    ApiResponse({ status: 200, description: 'the table; a closed table still answers, with phase "closed"', schema: cards.schemas.summary as SchemaObject }),
    ApiResponse(TABLE_NOT_FOUND),
  );

export const DescribeCloseTable = () =>
  applyDecorators(
    ApiTags('tables'),
    ApiOperation({ summary: 'Close a table: every socket closes with 4004. Closing a closed table again is 204' }),
    ApiBearerAuth(),
    TABLE_CODE,
    ApiResponse({ status: 204, description: 'closed' }),
    ApiResponse({ status: 401, description: '`unauthorized`: no valid token', schema: error('unauthorized') }),
    ApiResponse({ status: 403, description: '`forbidden`: the token is not this table’s player’s', schema: error('forbidden') }),
    ApiResponse({ ...TABLE_NOT_FOUND, description: '`room_not_found`, also for a token of another table' }),
  );

export const DescribeResults = () =>
  applyDecorators(
    ApiTags('results'),
    ApiOperation({ summary: 'A finished game\'s results by its link: JSON, or CSV with `.csv` after the id (one row per player per question); kept 30 days' }),
    ApiParam({ name: 'id', description: 'the `resultsId` of `game.finished`, optionally followed by `.csv`' }),
    ApiResponse({
      status: 200,
      description: 'the results (`text/csv` for `.csv`: `game,question,text,player,choice,right,points,ms`)',
      schema: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          number: { type: 'integer' },
          finishedAt: { type: 'number', description: 'epoch ms' },
          standings: { type: 'array', items: { type: 'object' } },
          questions: { type: 'array', items: { type: 'object', description: '{index, text, correct, rightRate, answers: [{playerId, name, choice, right, points, ms}]}' } },
        },
      },
    }),
    ApiResponse({ status: 404, description: '`results_not_found`: no such id, or finished more than 30 days ago', schema: error('results_not_found') }),
  );
