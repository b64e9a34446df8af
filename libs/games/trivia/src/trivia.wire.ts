import { z } from 'zod';
import {
  type ClientOf,
  commandData,
  defineWire,
  idField,
  integerField,
  laterKey,
  printableField,
  textKey,
  usualValues,
  WIRE_PROFILES,
  type WireCommands,
  type WireEvents,
} from '@game-rooms/client';

// This is trivia's wire (PROTOCOL.md sections 3 and 8): what each seat may send, what the room
// sends, and the compact codes derived from them. The file uses only zod and the client package's
// generic pieces, because the client package builds it into its `@game-rooms/client/trivia` entry
// point.

const index = 'must be a whole number from 0';
const picks = 'must be a list of 1 to 6 different choices, each a whole number from 0';
/** The longest typed answer (PROTOCOL.md section 13). */
export const TYPED_ANSWER_MAX = 40;

/**
 * The data of `room.answer`: the question, and one of `choice` (for a choice, true/false or poll
 * question), `choices` (for a multi question) or `text` (for a text question). The rules check which
 * one the open question takes, after they know the question is open (the order of PROTOCOL.md
 * section 3).
 */
const answerData = commandData({
  question: integerField(index),
  choice: integerField(index).optional(),
  choices: z
    .array(integerField(picks), { error: picks })
    .min(1, { error: picks })
    .max(6, { error: picks })
    .refine((c) => new Set(c).size === c.length, { error: picks })
    .optional(),
  text: printableField(TYPED_ANSWER_MAX).optional(),
}).superRefine((d, ctx) => {
  const given = (['choice', 'choices', 'text'] as const).filter((k) => d[k] !== undefined);
  // An answer with none of them is refused for lacking its choice, as before kinds existed. A text or
  // multi answer names its own field.
  if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['choice'], message: index });
  else if (given.length > 1)
    ctx.addIssue({ code: 'custom', path: [given[1]], message: 'must be left out: an answer holds one of choice, choices or text' });
});

/** Trivia's commands, by type, with the shape of `data` the server accepts for each. */
export const TRIVIA_COMMANDS = {
  'room.start': commandData({}),
  'room.answer': answerData,
  'room.rematch': commandData({ vote: z.boolean({ error: 'must be true or false' }) }),
  'room.leave': commandData({}),
  'room.kick': commandData({
    playerId: z.string({ error: 'must be a player id' }).min(1, { error: 'must be a player id' }).max(64, { error: 'must be a player id' }),
  }),
  /**
   * The host moves a host-paced game on: to the next question, to the end of the game, or by closing
   * the open question now.
   */
  'room.next': commandData({}),
};

// The keys added with question kinds, the host's pace and late arrivals (section 13) are sent as their
// own text (`textKey`). The code table shipped with 47 of its 52 letters taken. A client holding that
// table decodes a frame with such a key as it is, whereas a new letter would stop it.
const kind = textKey(z.enum(['choice', 'truefalse', 'multi', 'poll', 'text']));

const role = z.enum(['host', 'player', 'spectator']);
const phase = z.enum(['lobby', 'question', 'reveal', 'finished', 'closed']);

/** A player's id. Each compact socket numbers the ids it was sent. */
const playerId = idField(z.string());

// `id` comes after `connected`, because that is the order in which the compact keys were first
// numbered (see TRIVIA_WIRE).
const seat = z.object({
  name: z.string(),
  connected: z.boolean(),
  id: idField(z.string()),
  score: z.number(),
  /** In `room.state`, for a player who joined while the game ran: the first question that player can answer. */
  from: textKey(z.number().optional()),
});

// The settings' keys are numbered after every other key of the first table, because they are sent
// only in a state frame.
const settings = z.object({
  deckId: laterKey(z.string()),
  questionCount: laterKey(z.number()),
  secondsPerQuestion: laterKey(z.number()),
  revealSeconds: laterKey(z.number()),
  maxPlayers: laterKey(z.number()),
  minPlayers: laterKey(z.number()),
  pace: textKey(z.enum(['clock', 'host']).optional()),
  order: textKey(z.enum(['shuffled', 'deck']).optional()),
  lateJoin: textKey(z.boolean().optional()),
});

const openQuestion = z.object({
  index: z.number(),
  total: z.number(),
  text: z.string(),
  /** Absent for a text question. */
  choices: z.array(z.string()).optional(),
  closesAt: z.number(),
  answered: z.number(),
  of: z.number(),
  /** Absent for a choice question. */
  kind: kind.optional(),
  /** The question's own time, when it has one. When absent, the room's `secondsPerQuestion` applies. */
  seconds: textKey(z.number().optional()),
  /** The question's picture, as a URL on this server (`/api/images/{imageId}`). */
  image: textKey(z.string().optional()),
});

const scoreLine = z.object({ playerId, points: z.number(), total: z.number() });

/** The right answer: a choice, the right choices (multi), the accepted answers (text), or null (poll). */
const correct = z.union([z.number(), z.array(z.number()), z.array(z.string()), z.null()]);
/** How many players picked each choice, or how many typed a right and a wrong answer (text). */
const counts = z.union([z.array(z.number()), z.object({ right: textKey(z.number()), wrong: textKey(z.number()) })]);

const reveal = z.object({ index: z.number(), correct, counts, scores: z.array(scoreLine) });

const standing = z.object({
  playerId,
  name: z.string(),
  score: z.number(),
  correct: z.number(),
  rank: z.number(),
  /** The first question a late arrival could answer. When absent, it is 0, the first. */
  from: textKey(z.number().optional()),
});

const rematchDecision = z.object({ accepted: z.boolean(), playerIds: z.array(playerId) });

/** Why a player left or the room closed. A reason not in this list is sent as text. */
const reason = usualValues(z.string(), ['left', 'kicked', 'expired', 'closed']);

/** This field was added after the first table, so its key is numbered last. */
const resultsId = laterKey(z.string().optional(), 2);

const roomState = z.object({
  code: z.string(),
  phase,
  /** The wire profile this socket got (section 7). */
  wire: z.enum(WIRE_PROFILES).optional(),
  you: z.object({
    role,
    playerId: playerId.optional(),
    // What this seat did in the open question or vote. These keys are numbered after the first pass's
    // keys.
    answer: laterKey(
      z
        .object({
          question: z.number(),
          choice: z.number().optional(),
          choices: z.array(z.number()).optional(),
          text: z.string().optional(),
        })
        .optional(),
    ),
    rematchVote: laterKey(z.boolean().optional()),
  }),
  host: z.object({ name: z.string() }),
  players: z.array(seat),
  settings,
  serverTime: z.number(),
  question: openQuestion.optional(),
  reveal: reveal.extend({ total: z.number(), nextAt: z.number().optional() }).optional(),
  standings: z.array(standing).optional(),
  /** In phase finished, the id of the game's results (section 12), as game.finished named them. */
  resultsId,
  rematch: z.object({ closesAt: z.number(), voted: z.number(), of: z.number(), decided: rematchDecision.optional() }).optional(),
});

/** Trivia's events, by type, with the shape of `data` the room sends for each. */
export const TRIVIA_EVENTS = {
  'room.state': roomState,
  'player.joined': z.object({ player: seat }),
  'player.left': z.object({ playerId, reason: reason.optional() }),
  'player.presence': z.object({ playerId, connected: z.boolean() }),
  'question.open': openQuestion.omit({ answered: true, of: true }).extend({ serverTime: z.number() }),
  'question.progress': z.object({ index: z.number(), answered: z.number(), of: z.number() }),
  'question.closed': reveal,
  /** `resultsId` names the game's results page (section 12). An older server sends none. */
  'game.finished': z.object({ standings: z.array(standing), resultsId }),
  'rematch.open': z.object({ closesAt: z.number() }),
  'rematch.decided': rematchDecision,
  'room.closed': z.object({ reason }),
};

/**
 * Trivia's wire with its compact codes (PROTOCOL.md section 7). The codes are derived from the
 * schemas above (`deriveCodes` has the rules that keep them stable). What a schema cannot say is
 * declared here, by event type. The keys are numbered in `keyOrder`, from the frames sent most often
 * to the state frame, which is sent once per socket.
 */
export const TRIVIA_WIRE = defineWire({
  kind: 'trivia',
  commands: TRIVIA_COMMANDS,
  events: TRIVIA_EVENTS,
  stateEvent: 'room.state',
  compact: {
    'room.state': { sticky: ['code', 'host', 'settings'], defaults: { 'players[].connected': true, 'players[].score': 0 } },
    'player.joined': { defaults: { 'player.connected': true, 'player.score': 0 } },
    // In compact-v3, the reveal and every count name the open question without repeating its index.
    // The deadline is sent as the question's length, and a count that is all a frame says is sent
    // bare.
    'question.open': { sticky: ['total'], v3: { sticky: ['index'], relativeTo: { closesAt: 'serverTime' } } },
    'question.progress': { sticky: ['index', 'of'], v3: { stickyAs: { index: 'question.open' }, bare: 'answered' } },
    'question.closed': {
      sticky: ['scores[].playerId'],
      defaults: { 'scores[].points': 0 },
      v3: { sticky: ['index'], stickyAs: { index: 'question.open' } },
    },
    'game.finished': { defaults: { 'standings[].score': 0, 'standings[].correct': 0 } },
  },
  keyOrder: [
    'question.open',
    'question.progress',
    'question.closed',
    'game.finished',
    'rematch.decided',
    'room.closed',
    'player.joined',
    'room.state',
  ],
});

/** Trivia's section of the compact code table, derived from its schemas. */
export const TRIVIA_WIRE_CODES = TRIVIA_WIRE.codes;

export type TriviaCommands = WireCommands<typeof TRIVIA_WIRE>;
export type TriviaEvents = WireEvents<typeof TRIVIA_WIRE>;
export type TriviaCommandType = keyof TriviaCommands;
export type TriviaEventType = keyof TriviaEvents;

export type TriviaRoomPhase = z.output<typeof phase>;
export type TriviaSeat = z.output<typeof seat>;
export type TriviaSettings = z.output<typeof settings>;
export type TriviaOpenQuestion = z.output<typeof openQuestion>;
export type TriviaScoreLine = z.output<typeof scoreLine>;
export type TriviaReveal = z.output<typeof reveal>;
export type TriviaStanding = z.output<typeof standing>;
export type TriviaRematchDecision = z.output<typeof rematchDecision>;
export type TriviaRoomState = z.output<typeof roomState>;

/** A seat's connection to a trivia room. Its `send` and `on` take only this game's types and shapes. */
export type TriviaClient = ClientOf<typeof TRIVIA_WIRE>;
