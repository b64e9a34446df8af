import { z } from 'zod';
import { jsonObject, printableField, roomCodeField } from './fields.js';

// The rooms' HTTP shapes (PROTOCOL.md section 2): what a client sends, and what it gets back. The
// settings of each game's room are the game's own (GameModule.opening.schema).

export const RoomCodeParams = z.object({ code: roomCodeField() });

/** The longest a seat's name may be, in characters. */
export const NAME_MAX = 32;

/** `POST /api/rooms/{code}/players`. */
export const JoinRoomBody = jsonObject({ name: printableField(NAME_MAX) });
export type JoinRoomBody = z.input<typeof JoinRoomBody>;

export const JoinedRoom = z.object({ playerId: z.guid(), playerToken: z.string() });
export type JoinedRoom = z.infer<typeof JoinedRoom>;

/**
 * `POST /api/rooms` without `game`: a room of the server's first game, with its host's token, in
 * the shape that game's first clients know.
 */
export const OpenedHostRoom = z.object({ roomId: z.guid(), code: z.string(), hostToken: z.string() }).meta({ title: 'without game' });
export type OpenedHostRoom = z.infer<typeof OpenedHostRoom>;

/** `POST /api/rooms {game, ...}`: any game's room, with the opener's seat and token. */
export function openedRoom(games: readonly [string, ...string[]]) {
  return z
    .object({
      game: z.enum(games),
      roomId: z.guid(),
      code: z.string(),
      role: z.enum(['host', 'player']),
      seat: z.string().meta({ description: "the opener's seat: `host`, or the first player's id" }),
      token: z.string(),
    })
    .meta({ title: 'with game' });
}
export type OpenedRoom = z.infer<ReturnType<typeof openedRoom>>;

/** `POST /api/rooms/{code}/spectators` (and the tables' alias). */
export const SpectatorSeat = z.object({ spectatorToken: z.string() });
export type SpectatorSeat = z.infer<typeof SpectatorSeat>;

/**
 * `POST /api/rooms` (and `POST /api/tables`): a JSON object. `game`, when given, says which game's
 * settings the rest of the object holds.
 */
export const OpenRoomBody = z.looseObject({}, { error: 'must be a JSON object' });

/** `POST /api/rooms {game}`: which game. The rest of the body is that game's settings. */
export function gameChoice(games: readonly [string, ...string[]]) {
  return z.object({ game: z.enum(games, { error: `must be one of ${games.join(', ')}` }) });
}

/** `POST /api/tables`: a table, answered in the table's words (PROTOCOL.md section 8). */
export const OpenedTable = z.object({ tableId: z.guid(), code: z.string(), playerToken: z.string() });
export type OpenedTable = z.infer<typeof OpenedTable>;

/** `POST /api/rooms/{code}/spectators`: nothing is needed, and a body, if any, is ignored. */
export const SpectateBody = z.object({});
