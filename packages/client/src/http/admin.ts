import { z } from 'zod';
import { jsonObject, roomCodeField, wholeNumberQuery } from './fields.js';
import { GameResults } from './results.js';

// The operators' HTTP shapes (/admin/api, PROTOCOL.md section 4), which the console reads.

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `POST /admin/api/rooms/{code}/kick`. */
export const KickBody = jsonObject({ playerId: z.string({ error: 'must be a player id' }).min(1, 'must be a player id') });
export type KickBody = z.input<typeof KickBody>;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE_ACCEPTS = 'must be an ISO date (2026-12-01) or date and time with an offset (2026-12-01T09:30:00Z)';

/**
 * `from` and `to` are each an ISO date (a whole day, in UTC) or an ISO date and time with its
 * offset. `from` means the start of its day, or its instant. `to` means the end of its day (so a
 * range of one day is `from=D&to=D`), or its instant. Both are read as epoch ms.
 */
function dateBound(name: 'from' | 'to') {
  return z
    .string({ error: DATE_ACCEPTS })
    .transform((raw, ctx) => {
      const text = raw.trim();
      const day = DAY.exec(text);
      if (day) {
        const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
        const start = Date.UTC(y, m - 1, d);
        // Date.UTC rolls 2026-02-31 over into March, so check that the day exists and refuse it if not.
        const back = new Date(start);
        if (back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d)
          return name === 'from' ? start : start + 86_400_000;
      } else {
        const ms = INSTANT.test(text) ? Date.parse(text) : NaN;
        if (Number.isFinite(ms)) return ms;
      }
      ctx.addIssue({ code: 'custom', message: DATE_ACCEPTS });
      return z.NEVER;
    })
    .meta({
      description: name === 'from' ? 'the start of its day (UTC), or its instant' : 'the end of its day (UTC), or its instant',
      example: '2026-12-01',
    });
}

const CURSOR_ACCEPTS = "is not a cursor this API gave: pass back a page's `next` as it came";
/** A page's cursor as the API gave it (`next`): opaque base64url text that the server decodes. */
const cursor = z
  .string({ error: CURSOR_ACCEPTS })
  .regex(/^[A-Za-z0-9_-]{1,120}$/, CURSOR_ACCEPTS)
  .meta({ description: "a page's `next`, passed back as it came" });

const pageSize = wholeNumberQuery(1, MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE);

/** `GET /admin/api/finished?code=&from=&to=&cursor=&limit=`. An empty parameter counts as absent. */
export const FinishedQuery = z
  .object({
    code: roomCodeField().optional(),
    from: dateBound('from').optional(),
    to: dateBound('to').optional(),
    cursor: cursor.optional(),
    limit: pageSize,
  })
  .superRefine((q, ctx) => {
    if (q.from !== undefined && q.to !== undefined && q.from >= q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  });
export type FinishedQuery = z.input<typeof FinishedQuery>;

/** `GET /admin/api/rooms/{code}/refusals?cursor=&limit=`. */
export const RefusalsQuery = z.object({ cursor: cursor.optional(), limit: pageSize });
export type RefusalsQuery = z.input<typeof RefusalsQuery>;

export const AdminSession = z.object({
  via: z.enum(['cookie', 'bearer']),
  expiresAt: z.number().nullable().meta({ description: 'epoch ms; null for a bearer token' }),
});
export type AdminSession = z.infer<typeof AdminSession>;

export const CommandStat = z.object({
  command: z.string(),
  count: z.int().meta({ description: 'commands of this type since the server started' }),
  meanMs: z.number(),
});

/** What the server watches to know it is overloaded (PROTOCOL.md section 14). */
export const OverloadSignal = z.enum(['event_loop_delay', 'commit_wait', 'pool_wait']);
export type OverloadSignal = z.infer<typeof OverloadSignal>;

/** Whether this instance sheds new work now, and why (PROTOCOL.md section 14). */
export const Admission = z.object({
  shedding: z.boolean().meta({
    description: 'new work (opening, joining, spectating, activating a room, a socket for a room not live here) gets 503 `overloaded`',
  }),
  cause: OverloadSignal.nullable().meta({ description: 'the signal that sheds now; null while admitting' }),
  since: z.number().nullable().meta({ description: 'epoch ms when this shedding started; null while admitting' }),
  refused: z.int().meta({ description: 'new work refused as overloaded since the server started' }),
  signals: z.array(
    z.object({
      signal: OverloadSignal,
      levelMs: z.number().meta({ description: 'the level the signal held through most of the last second' }),
      markMs: z.number().meta({ description: 'shedding starts at this level; 0: the signal is off' }),
      admitBelowMs: z.number().meta({ description: 'shedding ends once every signal is below its own' }),
    }),
  ),
  anonymous: z
    .object({
      shedding: z.boolean().meta({
        description: 'new anonymous work (opening, joining, deck writes, lookups, spectator seats) gets 503 `overloaded`',
      }),
      since: z.number().nullable().meta({ description: 'epoch ms when this shedding started; null while admitting' }),
      markMs: z.number().meta({
        description: 'shedding starts when the `event_loop_delay` level reaches this (OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS); 0: off',
      }),
      admitBelowMs: z.number().meta({ description: 'shedding ends once the `event_loop_delay` level is below this' }),
      refused: z.int().meta({ description: 'new anonymous work refused by this gate since the server started (not in `refused`)' }),
    })
    .meta({
      description:
        'the gate of new anonymous work: it reads the event-loop delay only, at a far lower mark, and sheds before the main gate',
    }),
  commitFloorMs: z.number().meta({
    description:
      "the fastest commit of the last minute, which the `commit_wait` level is measured above (the database's distance); 0 when no commit came in that minute",
  }),
});
export type Admission = z.infer<typeof Admission>;

export const Overview = z.object({
  rooms: z.int(),
  sockets: z.object({ host: z.int(), player: z.int(), spectator: z.int() }),
  commandsPerSecond: z.number(),
  commands: z.array(CommandStat),
  pool: z.object({ total: z.int(), idle: z.int(), waiting: z.int(), max: z.int() }),
  poolAcquire: z.object({ count: z.int(), meanMs: z.number() }),
  admission: Admission,
  build: z.object({ version: z.string(), sha: z.string() }),
  serverTime: z.number().meta({ description: "the server's clock (epoch ms) when it built this snapshot" }),
});
export type Overview = z.infer<typeof Overview>;

export const Phase = z.enum(['lobby', 'question', 'reveal', 'finished', 'closed']);
export type Phase = z.infer<typeof Phase>;

const roomFields = {
  code: z.string(),
  game: z.string(),
  // Every game's phase, in the game's own words.
  phase: z.string(),
  playersConnected: z.int(),
  question: z.int().nullable().meta({ description: 'the current question (or hand), null outside a game' }),
  mailboxDepth: z.int(),
  mailboxDepthMax: z.int().meta({ description: 'the deepest the mailbox has been' }),
  statementsInFlight: z.int(),
  commands: z.int(),
  lastCommandMs: z.number().nullable(),
  ageSeconds: z.int(),
};

export const RoomRow = z.object({ ...roomFields, players: z.int() });
export type RoomRow = z.infer<typeof RoomRow>;
export const RoomsSnapshot = z.object({ rooms: z.array(RoomRow) });
export type RoomsSnapshot = z.infer<typeof RoomsSnapshot>;

export const RoomPlayer = z.object({ id: z.string(), name: z.string(), connected: z.boolean(), score: z.int() });
export type RoomPlayer = z.infer<typeof RoomPlayer>;
export const OpenQuestion = z.object({
  index: z.int(),
  total: z.int(),
  text: z.string(),
  closesAt: z.number().meta({ description: 'server epoch ms' }),
});
export type OpenQuestion = z.infer<typeof OpenQuestion>;
export const RoomCommand = z.object({
  type: z.string(),
  at: z.number(),
  mailboxWaitMs: z.number(),
  ms: z.number(),
  status: z.int(),
  roundTrips: z.int(),
});
export type RoomCommand = z.infer<typeof RoomCommand>;

/**
 * One live room: the row, what its game adds (the players and the open question of a room played
 * from a deck), and its last commands.
 */
export const RoomDetail = z
  .object({
    ...roomFields,
    players: z.array(RoomPlayer),
    hostName: z.string(),
    openQuestion: OpenQuestion.nullable(),
    lastCommands: z.array(RoomCommand).meta({ description: 'oldest first, at most 100' }),
    replyMemory: z
      .object({
        seats: z.int().meta({ description: 'seats (players and the host) with remembered ids' }),
        ids: z.int().meta({ description: 'acknowledged command ids a resend gets the original reply of' }),
        bytes: z.int().meta({ description: 'what they count against REPLY_MEMORY_ROOM_BYTES (JSON, as a snapshot stores them)' }),
        inFlight: z.int().meta({ description: 'ids whose reply has not come yet' }),
        sockets: z.int().meta({ description: "spectators' sockets holding anything: freed when the socket goes" }),
      })
      .meta({ description: 'what the room remembers of its replies, for resends' }),
  })
  .loose();
export type RoomDetail = z.infer<typeof RoomDetail>;

export const InstanceRow = z.object({
  name: z.string(),
  url: z.string(),
  pid: z.int(),
  startedAt: z.number().meta({ description: 'epoch ms' }),
  rooms: z.int(),
  health: z.enum(['ok', 'draining', 'stopped']).meta({ description: 'what the instance says of itself' }),
  seenSecondsAgo: z.number(),
  status: z.enum(['up', 'silent', 'stopped']).meta({ description: '`silent`: no heartbeat for three beats' }),
  self: z.boolean().meta({ description: 'the instance serving this request' }),
});
export type InstanceRow = z.infer<typeof InstanceRow>;
export const InstancesSnapshot = z.object({ instances: z.array(InstanceRow) });
export type InstancesSnapshot = z.infer<typeof InstancesSnapshot>;

export const FinishedGame = z.object({
  id: z.string(),
  resultsId: z.string().meta({ description: 'the public results link’s id (`/results/{id}`)' }),
  code: z.string(),
  game: z.string(),
  number: z.int().meta({ description: 'its number in its room: a rematch is the next' }),
  hostName: z.string().nullable(),
  players: z.object({ count: z.int(), names: z.array(z.string()) }),
  winner: z.string().nullable(),
  startedAt: z.number(),
  startedFrom: z.enum(['summary', 'previous_game', 'room_opened']),
  finishedAt: z.number(),
});
export type FinishedGame = z.infer<typeof FinishedGame>;
export const FinishedPage = z.object({
  games: z.array(FinishedGame),
  next: z.string().nullable().meta({ description: 'pass back as `cursor`; null on the last page' }),
});
export type FinishedPage = z.infer<typeof FinishedPage>;
export const FinishedGameDetail = FinishedGame.extend({
  publicUntil: z.number().meta({ description: 'until when the public link answers (epoch ms)' }),
  results: GameResults.nullable().meta({ description: 'as GET /api/results/{id} gives them; null for a game that reports none' }),
});
export type FinishedGameDetail = z.infer<typeof FinishedGameDetail>;

export const RefusedCommand = z.object({
  at: z.number(),
  by: z.string().meta({ description: 'player, host, spectator, or operator' }),
  playerId: z.string().nullable(),
  name: z.string().nullable(),
  type: z.string(),
  code: z.string(),
  status: z.int(),
  message: z.string(),
});
export type RefusedCommand = z.infer<typeof RefusedCommand>;
export const RefusalsPage = z.object({
  code: z.string(),
  roomId: z.string(),
  live: z.boolean(),
  keptDays: z.int(),
  refusals: z.array(RefusedCommand),
  next: z.string().nullable(),
});
export type RefusalsPage = z.infer<typeof RefusalsPage>;

export const FinishedIdParams = z.object({ id: z.string().meta({ description: 'a finished game’s id (a UUID)' }) });

/** `GET /admin/api/stream?room=`. With `room`, it also streams that room's detail (or `room-gone`). */
export const StreamQuery = z.object({
  room: z.string().optional().meta({ description: 'a room code: its detail rides along each second' }),
});
