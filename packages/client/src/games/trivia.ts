import { z } from 'zod';
import type { ReconnectingClient } from '../client/reconnecting-client.js';
import { WIRE_PROFILES } from '../wire.types.js';
import { commandData, type CommandsOf, type EventsOf, integerField } from '../schema.js';

// Trivia's wire (PROTOCOL.md sections 3 and 8): what each seat may send, and what the room sends.

const index = 'must be a whole number from 0';

/** Trivia's commands, by type: the shape of `data` the server accepts. */
export const TRIVIA_COMMANDS = {
  'room.start': commandData({}),
  'room.answer': commandData({ question: integerField(index), choice: integerField(index) }),
  'room.rematch': commandData({ vote: z.boolean({ error: 'must be true or false' }) }),
  'room.leave': commandData({}),
  'room.kick': commandData({ playerId: z.string({ error: 'must be a player id' }).min(1, { error: 'must be a player id' }).max(64, { error: 'must be a player id' }) }),
};

const role = z.enum(['host', 'player', 'spectator']);
const phase = z.enum(['lobby', 'question', 'reveal', 'finished', 'closed']);

const seat = z.object({ id: z.string(), name: z.string(), connected: z.boolean(), score: z.number() });

const settings = z.object({
  deckId: z.string(),
  questionCount: z.number(),
  secondsPerQuestion: z.number(),
  revealSeconds: z.number(),
  maxPlayers: z.number(),
  minPlayers: z.number(),
});

const openQuestion = z.object({
  index: z.number(),
  total: z.number(),
  text: z.string(),
  choices: z.array(z.string()),
  closesAt: z.number(),
  answered: z.number(),
  of: z.number(),
});

const scoreLine = z.object({ playerId: z.string(), points: z.number(), total: z.number() });

const reveal = z.object({ index: z.number(), correct: z.number(), counts: z.array(z.number()), scores: z.array(scoreLine) });

const standing = z.object({ playerId: z.string(), name: z.string(), score: z.number(), correct: z.number(), rank: z.number() });

const rematchDecision = z.object({ accepted: z.boolean(), playerIds: z.array(z.string()) });

const roomState = z.object({
  code: z.string(),
  phase,
  /** The wire profile this socket got (section 7). */
  wire: z.enum(WIRE_PROFILES).optional(),
  you: z.object({
    role,
    playerId: z.string().optional(),
    answer: z.object({ question: z.number(), choice: z.number() }).optional(),
    rematchVote: z.boolean().optional(),
  }),
  host: z.object({ name: z.string() }),
  players: z.array(seat),
  settings,
  serverTime: z.number(),
  question: openQuestion.optional(),
  reveal: reveal.extend({ total: z.number(), nextAt: z.number().optional() }).optional(),
  standings: z.array(standing).optional(),
  /** In phase finished, the game's results (section 12), as game.finished named them. */
  resultsId: z.string().optional(),
  rematch: z.object({ closesAt: z.number(), voted: z.number(), of: z.number(), decided: rematchDecision.optional() }).optional(),
});

/** Trivia's events, by type: the shape of `data` the room sends. */
export const TRIVIA_EVENTS = {
  'room.state': roomState,
  'player.joined': z.object({ player: seat }),
  'player.left': z.object({ playerId: z.string(), reason: z.string().optional() }),
  'player.presence': z.object({ playerId: z.string(), connected: z.boolean() }),
  'question.open': openQuestion.omit({ answered: true, of: true }).extend({ serverTime: z.number() }),
  'question.progress': z.object({ index: z.number(), answered: z.number(), of: z.number() }),
  'question.closed': reveal,
  /** `resultsId` names the game's results page (section 12); an older server sends none. */
  'game.finished': z.object({ standings: z.array(standing), resultsId: z.string().optional() }),
  'rematch.open': z.object({ closesAt: z.number() }),
  'rematch.decided': rematchDecision,
  'room.closed': z.object({ reason: z.string() }),
};

export type TriviaCommands = CommandsOf<typeof TRIVIA_COMMANDS>;
export type TriviaEvents = EventsOf<typeof TRIVIA_EVENTS>;
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

/** A seat's connection to a trivia room: `send` and `on` take only this game's types and shapes. */
export type TriviaClient = ReconnectingClient<TriviaEvents, TriviaCommands>;
