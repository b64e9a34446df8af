import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  BadCsvBody,
  CreatedDeck,
  DeckBody,
  DeckCsv,
  DeckCsvTemplate,
  DeckDetails,
  DeckIdParams,
  DeckImportQuery,
  DeckList,
  DeckListQuery,
  DECK_TOKENS_MAX,
  DeckSummary,
  errorBody,
  GameResults,
  Health,
  JoinedRoom,
  JoinRoomBody,
  Leaderboard,
  LeaderboardQuery,
  Liveness,
  openedRoom,
  Readiness,
  ResultsCsv,
  ResultsParams,
  RoomCodeParams,
  SpectateBody,
  SpectatorSeat,
} from '@app/protocol';
import { LEADERBOARD_GAMES } from '@app/persistence';
import { GameRegistry, GameRoutes } from '../rooms/games';
import { DocBody, DocParams, DocQuery, DocResponse, oneOf, openApiOf } from './schema-docs';

// This file holds the OpenAPI description of each route. It is kept out of the controllers so that
// each route there stays one line. Every shape is a zod schema (in packages/client/src/http/, or
// each game's own), the same schema that validates the request. The error codes are those that
// docs/protocol.md sections 2 and 8 give.

type Answer = { readonly status: number; readonly description: string; readonly schema?: z.ZodType };
const answers = (...list: Answer[]) => list.map((a) => DocResponse(a.status, a.description, a.schema));
const error = errorBody;

const BAD_DATA: Answer = {
  status: 400,
  description: '`bad_data` (the message names the field) or `bad_json`',
  schema: error('bad_data | bad_json'),
};
const NOT_FOUND: Answer = { status: 404, description: '`room_not_found`: no room has this code', schema: error('room_not_found') };
// The refusal of opening a room or a table (PROTOCOL.md section 11). Both refusals carry Retry-After,
// in seconds.
const RATE_LIMITED: Answer = {
  status: 429,
  description: '`rate_limited`: this client address opened too many rooms and tables lately; `Retry-After` says when to try again',
  schema: error('rate_limited'),
};
/** The refusal for any other per-address budget (README "Limits"). `what` names the budget. */
const RATE_LIMITED_FOR = (what: string): Answer => ({
  status: 429,
  description: `\`rate_limited\`: this client address made too many ${what} lately; nothing was recorded; \`Retry-After\` says when to try again`,
  schema: error('rate_limited'),
});
/** The refusal for a closed room, which is answered from its row. */
const GONE: Answer = {
  status: 410,
  description: '`room_gone`: the room is closed; answered from its row, never rebuilt',
  schema: error('room_gone'),
};
const SPECTATORS_FULL = '`room_closed`, or `spectators_full` (the room holds SPECTATORS_PER_ROOM spectators; `Retry-After: 10`)';
const OPEN_UNAVAILABLE: Answer = {
  status: 503,
  description:
    '`overloaded` (this instance sheds new work, or has spent its budget of these for every client together: PROTOCOL.md sections 11 and 14), `rooms_at_capacity` (this instance holds MAX_LIVE_ROOMS live rooms) or `database_unavailable` (nothing was recorded); `Retry-After` says when to try again',
  schema: error('overloaded | rooms_at_capacity | database_unavailable'),
};
// Joining, spectating and lookups create work too, so they are shed while the instance is overloaded
// and counted against its budgets.
const NEW_WORK_UNAVAILABLE: Answer = {
  status: 503,
  description:
    '`overloaded` (this instance sheds new work, or has spent its budget of these for every client together; the room goes on), `rooms_at_capacity` or `database_unavailable` (nothing was recorded); `Retry-After` says when to try again',
  schema: error('overloaded | rooms_at_capacity | database_unavailable'),
};
// Deck writes are shed and budgeted like the rest of the anonymous work.
const DECK_UNAVAILABLE: Answer = {
  status: 503,
  description:
    '`overloaded` (this instance sheds new work, or has spent its budget of deck writes for every client together) or `database_unavailable`: nothing was recorded; `Retry-After` says when to try again',
  schema: error('overloaded | database_unavailable'),
};
const CODE = () => DocParams(RoomCodeParams);

const openable = (registry: GameRegistry) => registry.games.filter((g) => g.opening);
const openableKinds = (registry: GameRegistry) => openable(registry).map((g) => g.kind) as [string, ...string[]];

/** Shows a game's opening body with `game` in front. A schema that is not an object is shown beside `game`. */
function withGame(kind: string, schema: z.ZodType): z.ZodType {
  const game = z.object({ game: z.literal(kind) });
  return schema instanceof z.ZodObject ? game.extend(schema.shape) : game.and(schema);
}

/** Returns one schema for these: a union when there are several. A server of one game has only one. */
function oneSchema(schemas: z.ZodType[]): z.ZodType {
  return schemas.length === 1 ? schemas[0] : z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/**
 * The opening body and answer of a route without `game`. They are in the default game's own words
 * when there is a default game, and otherwise the first game's, as any route answers them.
 */
function defaultOpening(registry: GameRegistry): { body: z.ZodType[]; answer: z.ZodType[] } {
  const routes = registry.defaultGame;
  if (!routes?.game.opening) return { body: [], answer: [] };
  return { body: [routes.game.opening.schema.meta({ title: `${routes.game.kind} (no game)` })], answer: [routes.openedShape] };
}

export const DescribeCreateRoom = (registry: GameRegistry) =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({
      summary: `Open a room of any game: with \`game\`, that game's settings, and the answer carries the opener's seat and token; without it, a ${registry.defaultKind} room${registry.defaultGame ? ' in its lobby, and the answer carries the host token' : ''}`,
    }),
    // Without `game`, the body is the default game's settings. With it, the body is each game's own.
    DocBody(
      oneSchema([
        ...defaultOpening(registry).body,
        ...openable(registry).map((g) => withGame(g.kind, g.opening!.schema).meta({ title: g.kind })),
      ]),
    ),
    DocResponse(201, 'the room is open', oneSchema([...defaultOpening(registry).answer, openedRoom(openableKinds(registry))])),
    ...answers(
      {
        ...BAD_DATA,
        description: '`bad_data` (an unknown `game`; also when the deck has fewer questions than questionCount) or `bad_json`',
      },
      { status: 404, description: '`deck_not_found`', schema: error('deck_not_found') },
      RATE_LIMITED,
      OPEN_UNAVAILABLE,
    ),
  );

export const DescribeJoinRoom = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'Take a seat in a room that is in its lobby' }),
    CODE(),
    DocBody(JoinRoomBody),
    DocResponse(201, 'seated', JoinedRoom),
    ...answers(
      BAD_DATA,
      NOT_FOUND,
      {
        status: 409,
        description:
          '`room_full`, `game_in_progress` (the room is finished, or its game runs and it was opened with `lateJoin: false`) or `room_closed`',
        schema: error('room_full | game_in_progress | room_closed'),
      },
      GONE,
      RATE_LIMITED_FOR('joins'),
      NEW_WORK_UNAVAILABLE,
    ),
  );

export const DescribeSpectate = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'A token to watch a room' }),
    CODE(),
    DocBody(SpectateBody, false),
    DocResponse(201, 'a spectator token', SpectatorSeat),
    ...answers(
      NOT_FOUND,
      { status: 409, description: SPECTATORS_FULL, schema: error('room_closed | spectators_full') },
      GONE,
      RATE_LIMITED_FOR('spectator seats asked for'),
      NEW_WORK_UNAVAILABLE,
    ),
  );

export const DescribeRoomSummary = (registry: GameRegistry) =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'The public summary of a room of any game, in its game’s shape (`game` says which); never a secret' }),
    CODE(),
    // Each registered game has its own shape here, so a new game adds its shape by registering.
    DocResponse(200, 'the room', oneOf(registry.games.map((g) => ({ title: g.kind, schema: g.schemas.summary })))),
    ...answers(NOT_FOUND, GONE, RATE_LIMITED_FOR('room lookups'), NEW_WORK_UNAVAILABLE),
  );

export const DescribeCloseRoom = () =>
  applyDecorators(
    ApiTags('rooms'),
    ApiOperation({ summary: 'Close a room: every socket closes with 4004. Closing a closed room again is 204' }),
    ApiBearerAuth(),
    CODE(),
    ...answers(
      { status: 204, description: 'closed' },
      { status: 401, description: '`unauthorized`: no valid token', schema: error('unauthorized') },
      { status: 403, description: '`forbidden`: the token is not this room host’s', schema: error('forbidden') },
      { ...NOT_FOUND, description: '`room_not_found`, also for a host token of another room' },
    ),
  );

export const DescribeListDecks = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'The decks a host can choose from, a page at a time: the built-in ones, then those whose edit tokens come as `Authorization: Bearer t1, t2, ...` ' +
        `(at most ${DECK_TOKENS_MAX}, oldest first); nobody lists another host's decks`,
    }),
    ApiBearerAuth(),
    DocQuery(DeckListQuery),
    DocResponse(200, 'a page of decks, and the cursor of the next', DeckList),
    ...answers({
      ...BAD_DATA,
      description: '`bad_data`: `limit` or `cursor` (the message names it), or an `Authorization` that is not `Bearer` and edit tokens',
    }),
  );

const DECK_ID = () => DocParams(DeckIdParams);
const DECK_NOT_FOUND: Answer = {
  status: 404,
  description: '`deck_not_found`: no deck has this id (also a deleted one, or an id that is not a UUID)',
  schema: error('deck_not_found'),
};
const DECK_FORBIDDEN: Answer = {
  status: 403,
  description:
    '`forbidden`: no edit token as `Authorization: Bearer`, or not this deck’s; `deck_read_only`: the built-in deck (or one made before edit tokens), which nobody may change',
  schema: error('forbidden | deck_read_only'),
};
const DECK_BAD_DATA: Answer = {
  ...BAD_DATA,
  description: '`bad_data` (the message names the field, e.g. questions[0].correct) or `bad_json`',
};
const TOO_LARGE = (what: string): Answer => ({
  status: 413,
  description: `\`payload_too_large\`: ${what}`,
  schema: error('payload_too_large'),
});

export const DescribeCreateDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'Add a custom deck; the answer carries its edit token, shown this once' }),
    DocBody(DeckBody),
    DocResponse(201, 'the new deck', CreatedDeck),
    ...answers(DECK_BAD_DATA, TOO_LARGE('a body over 1 MiB'), RATE_LIMITED_FOR('decks created or imported'), DECK_UNAVAILABLE),
  );

export const DescribeImportDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'Add a deck from a CSV as spreadsheets export it: a header row, then `question,choice1,...,choice6,correct` a row, `correct` 1-based, ' +
        'and after it, when the header names them, `kind` (choice, truefalse, multi, poll, text; empty: choice), `seconds` and `accepted` (a text question’s answers, separated by `|`); ' +
        'RFC 4180 quoting, a UTF-8 BOM, CRLF/LF/CR line ends, `;` as the separator when the header row has no comma; blank rows skipped; 1 to 200 questions',
    }),
    DocQuery(DeckImportQuery),
    DocBody(DeckCsv),
    DocResponse(201, 'the new deck; `questions` is how many were read', CreatedDeck),
    DocResponse(
      400,
      '`bad_csv` naming the first bad cell: `line` of the file (1 = the header; a quoted cell with line breaks spans several) and `column` (1 = the question, 8 = correct in the template); or `bad_data` for the name',
      BadCsvBody,
    ),
    ...answers(
      TOO_LARGE('a CSV over 1 MiB'),
      {
        status: 415,
        description: '`unsupported_media_type`: the body is not `text/csv` (or `text/plain`)',
        schema: error('unsupported_media_type'),
      },
      RATE_LIMITED_FOR('decks created or imported'),
      DECK_UNAVAILABLE,
    ),
  );

export const DescribeDeckTemplate = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'A CSV to start a deck from in a spreadsheet: the header row and an example question of each kind' }),
    DocResponse(200, 'the template, as an attachment', DeckCsvTemplate, 'text/csv'),
  );

export const DescribeReadDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'A deck and its questions; the right answers (`correct`, `accepted`) only with its edit token as Bearer. `GET /api/decks/{id}.csv` with the edit token exports the deck as CSV in the import’s format (no pictures)',
    }),
    ApiBearerAuth(),
    DECK_ID(),
    DocResponse(200, 'the deck; `editable` says whether it has an edit token at all', DeckDetails),
    ...answers(
      {
        ...DECK_FORBIDDEN,
        description: 'a Bearer token was sent and is not this deck’s edit token (`forbidden`), or the deck has none (`deck_read_only`)',
      },
      DECK_NOT_FOUND,
    ),
  );

export const DescribeReplaceDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({ summary: 'Replace a deck’s name and questions with its edit token; a game already playing it keeps its questions' }),
    ApiBearerAuth(),
    DECK_ID(),
    DocBody(DeckBody),
    DocResponse(200, 'the deck as it is now', DeckSummary),
    ...answers(DECK_BAD_DATA, DECK_FORBIDDEN, DECK_NOT_FOUND, TOO_LARGE('a body over 1 MiB')),
  );

export const DescribeDeleteDeck = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary: 'Delete a deck with its edit token: no longer listed, read or opened; a game already playing it keeps its questions',
    }),
    ApiBearerAuth(),
    DECK_ID(),
    ...answers({ status: 204, description: 'deleted' }, DECK_FORBIDDEN, DECK_NOT_FOUND),
  );

export const DescribeLeaderboard = () =>
  applyDecorators(
    ApiTags('results'),
    ApiOperation({ summary: `The best players over the newest ${LEADERBOARD_GAMES} finished games of one game, best total first` }),
    DocQuery(LeaderboardQuery),
    DocResponse(200, 'one entry per seat', Leaderboard),
    ...answers({ ...BAD_DATA, description: '`bad_data`: limit out of 1-100, or a game this server does not play' }),
  );

export const DescribeHealth = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({
      summary: 'For people: the build, the instance and the database round trip (probes use /health/live and /health/ready)',
    }),
    DocResponse(200, 'up, with the database reachable', Health),
    DocResponse(503, 'the database is unreachable: `status: "unavailable"`, `db.ok: false`', Health),
  );

export const DescribeLiveness = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({
      summary: 'Liveness: 200 while the process can serve its sockets, whether or not PostgreSQL is reachable; never queries it',
    }),
    DocResponse(200, '`{status: "live", instance, pid, uptimeSeconds}`', Liveness),
  );

export const DescribeReadiness = () =>
  applyDecorators(
    ApiTags('operations'),
    ApiOperation({ summary: 'Readiness: whether this instance should get new traffic (PostgreSQL reachable, not draining)' }),
    DocResponse(200, '`{status: "ready", instance}`', Readiness),
    DocResponse(503, '`{status: "not_ready", reason: "database_unavailable" | "draining", instance}`, with `Retry-After`', Readiness),
  );

/** What an operators' route takes and answers, besides its summary. */
export interface AdminShapes {
  readonly ok?: z.ZodType;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly params?: z.ZodObject;
}

export const DescribeAdmin = (summary: string, extra: Answer[] = [], shapes: AdminShapes = {}) =>
  applyDecorators(
    ApiTags('operators'),
    ApiBearerAuth(),
    ApiOperation({ summary }),
    ...(shapes.params ? [DocParams(shapes.params)] : []),
    ...(shapes.query ? [DocQuery(shapes.query)] : []),
    ...(shapes.body ? [DocBody(shapes.body)] : []),
    ...(shapes.ok ? [DocResponse(200, 'the answer', shapes.ok)] : []),
    ...answers({ status: 401, description: '`unauthorized`: no admin token, or a wrong one', schema: error('unauthorized') }, ...extra),
  );

// The descriptions below are for the aliases of the generic routes for one game (the registry's
// aliases). Each is tagged by its path.

const ALIAS_CODE = ({ noun }: GameRoutes) =>
  DocParams(
    RoomCodeParams.extend({
      code: RoomCodeParams.shape.code.meta({ description: `the ${noun} code, 6 characters; case is ignored`, example: 'K7QMPD' }),
    }),
  );
const ALIAS_NOT_FOUND = ({ noun }: GameRoutes): Answer => ({
  status: 404,
  description: `\`room_not_found\`: no ${noun} has this code`,
  schema: error('room_not_found'),
});

export const DescribeAliasOpen = (path: string, routes: GameRoutes) =>
  applyDecorators(
    ApiTags(path),
    ApiOperation({
      summary: `Open a ${routes.noun}: POST /api/rooms with \`game: "${routes.game.kind}"\`; the answer carries the opener's token`,
    }),
    DocBody(routes.game.opening!.schema),
    DocResponse(201, `the ${routes.noun} is open`, routes.openedShape),
    ...answers(
      {
        ...BAD_DATA,
        description: '`bad_data` (the message names the field; also a `seed` on a server not started for tests) or `bad_json`',
      },
      RATE_LIMITED,
      OPEN_UNAVAILABLE,
    ),
  );

export const DescribeAliasSpectate = (path: string, routes: GameRoutes) =>
  applyDecorators(
    ApiTags(path),
    ApiOperation({ summary: `A token to watch a ${routes.noun} (POST /api/rooms/{code}/spectators for a ${routes.game.kind} room)` }),
    ALIAS_CODE(routes),
    DocBody(SpectateBody, false),
    DocResponse(201, 'a spectator token', SpectatorSeat),
    ...answers(
      ALIAS_NOT_FOUND(routes),
      { status: 409, description: SPECTATORS_FULL, schema: error('room_closed | spectators_full') },
      GONE,
      RATE_LIMITED_FOR('spectator seats asked for'),
      NEW_WORK_UNAVAILABLE,
    ),
  );

export const DescribeAliasSummary = (path: string, routes: GameRoutes) =>
  applyDecorators(
    ApiTags(path),
    ApiOperation({ summary: `The public summary of a ${routes.noun} (GET /api/rooms/{code} for a ${routes.game.kind} room)` }),
    ALIAS_CODE(routes),
    DocResponse(200, `the ${routes.noun}`, routes.game.schemas.summary),
    ...answers(ALIAS_NOT_FOUND(routes), GONE, RATE_LIMITED_FOR('room lookups'), NEW_WORK_UNAVAILABLE),
  );

export const DescribeAliasClose = (path: string, routes: GameRoutes) =>
  applyDecorators(
    ApiTags(path),
    ApiOperation({
      summary: `Close a ${routes.noun} (DELETE /api/rooms/{code} for a ${routes.game.kind} room): every socket closes with 4004. Closing a closed ${routes.noun} again is 204`,
    }),
    ApiBearerAuth(),
    ALIAS_CODE(routes),
    ...answers(
      { status: 204, description: 'closed' },
      { status: 401, description: '`unauthorized`: no valid token', schema: error('unauthorized') },
      {
        status: 403,
        description: `\`forbidden\`: the token is not of a seat that may close this ${routes.noun}`,
        schema: error('forbidden'),
      },
      { ...ALIAS_NOT_FOUND(routes), description: `\`room_not_found\`, also for a token of another ${routes.noun}` },
    ),
  );

export const DescribeResults = (registry: GameRegistry) =>
  applyDecorators(
    ApiTags('results'),
    ApiOperation({
      summary:
        "A finished game's results by its link: JSON, or CSV with `.csv` after the id (its game's own rows); readable for the results window (`RESULTS_KEPT_DAYS`, 30 days by default)",
    }),
    DocParams(ResultsParams),
    ApiResponse({
      status: 200,
      description: `the results (\`text/csv\` for \`.csv\`, with each game's own columns: ${registry.games
        .filter((g) => g.results)
        .map((g) => `${g.kind} \`${g.results!.csvHeader.join(',')}\``)
        .join('; ')})`,
      content: { 'application/json': { schema: openApiOf(GameResults) }, 'text/csv': { schema: openApiOf(ResultsCsv) } },
    }),
    ...answers({
      status: 404,
      description: '`results_not_found`: no such id, or finished longer ago than the results window',
      schema: error('results_not_found'),
    }),
  );
