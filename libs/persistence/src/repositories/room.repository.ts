import { Database } from '../database';

export interface NewRoom {
  readonly id: string;
  readonly code: string;
  readonly hostName: string;
  readonly deckId: string;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly maxPlayers: number;
  readonly minPlayers: number;
}

export type CreateRoomResult = 'created' | 'code_taken' | { deckNotFound: true } | { deckTooSmall: number };

/** A room as the actor needs it on activation: the room, its seats and what it has played. */
export interface StoredRoom {
  readonly id: string;
  readonly code: string;
  readonly hostName: string;
  readonly deckId: string;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly maxPlayers: number;
  readonly minPlayers: number;
  readonly phase: string;
  readonly gamesPlayed: number;
  readonly lastGameAt: number;
  readonly createdAt: number;
  readonly closed: boolean;
  readonly closedReason: string | null;
  readonly players: { id: string; name: string }[];
  readonly playedQuestionIds: number[];
  readonly lastStandings: { playerId: string; name: string; score: number; correct: number; rank: number }[] | null;
}

export interface ClosedRoom {
  readonly roomId: string;
  readonly code: string;
}

/** The channel on which a change made outside a room's actor reaches it. */
export const ROOM_CHANGES_CHANNEL = 'room_changes';

export class RoomRepository {
  constructor(private readonly db: Database) {}

  async createRoom(room: NewRoom): Promise<CreateRoomResult> {
    const [row] = await this.db.run<{ deck_size: number | null; created: number }>(
      'RoomRepository.createRoom',
      `WITH deck AS (
         SELECT d.id, (SELECT count(*) FROM questions q WHERE q.deck_id = d.id)::int AS size
         FROM decks d WHERE d.id = $4
       ), created AS (
         INSERT INTO rooms (id, code, host_name, deck_id, question_count, seconds_per_question, reveal_seconds, max_players, min_players)
         SELECT $1, $2, $3, deck.id, $5, $6, $7, $8, $9 FROM deck WHERE deck.size >= $5
         ON CONFLICT (code) WHERE closed_at IS NULL DO NOTHING
         RETURNING id
       )
       SELECT (SELECT size FROM deck) AS deck_size, (SELECT count(*) FROM created)::int AS created`,
      [room.id, room.code, room.hostName, room.deckId, room.questionCount, room.secondsPerQuestion, room.revealSeconds, room.maxPlayers, room.minPlayers],
    );
    if (row.deck_size === null) return { deckNotFound: true };
    if (row.deck_size < room.questionCount) return { deckTooSmall: row.deck_size };
    return row.created === 1 ? 'created' : 'code_taken';
  }

  /** Loads many rooms in one statement: rooms that activate together share a round trip. */
  async loadRooms(codes: readonly string[]): Promise<StoredRoom[]> {
    const rows = await this.db.run<StoredRoom & { playedQuestionIds: string[] }>(
      'RoomRepository.loadRooms',
      `SELECT r.id, trim(r.code) AS code, r.host_name AS "hostName", r.deck_id AS "deckId",
              r.question_count AS "questionCount", r.seconds_per_question AS "secondsPerQuestion",
              r.reveal_seconds AS "revealSeconds", r.max_players AS "maxPlayers", r.min_players AS "minPlayers",
              r.phase, r.games_played AS "gamesPlayed",
              (extract(epoch FROM r.last_game_at) * 1000)::float8 AS "lastGameAt",
              (extract(epoch FROM r.created_at) * 1000)::float8 AS "createdAt",
              r.closed_at IS NOT NULL AS closed, r.closed_reason AS "closedReason",
              coalesce((SELECT json_agg(json_build_object('id', p.id, 'name', p.name) ORDER BY p.joined_at, p.id)
                        FROM players p WHERE p.room_id = r.id AND p.left_at IS NULL), '[]') AS players,
              coalesce((SELECT array_agg(qid) FROM games g, unnest(g.question_ids) AS qid WHERE g.room_id = r.id), '{}') AS "playedQuestionIds",
              (SELECT json_agg(json_build_object('playerId', gr.player_id, 'name', gr.name, 'score', gr.score,
                                                 'correct', gr.correct, 'rank', gr.rank) ORDER BY gr.rank, gr.name)
               FROM game_results gr
               WHERE gr.game_id = (SELECT g.id FROM games g WHERE g.room_id = r.id ORDER BY g.game_no DESC LIMIT 1)) AS "lastStandings"
       FROM (SELECT DISTINCT ON (code) * FROM rooms WHERE code = ANY($1::char(6)[])
             ORDER BY code, (closed_at IS NULL) DESC, created_at DESC) AS r`,
      [codes],
    );
    return rows.map((r) => ({ ...r, playedQuestionIds: r.playedQuestionIds.map(Number) }));
  }

  /**
   * Closes an open room and tells its actor, wherever it runs, through NOTIFY, in one statement.
   * Returns null when no open room matched.
   */
  async closeRoom(target: { roomId: string } | { code: string }, reason: string): Promise<ClosedRoom | null> {
    const byId = 'roomId' in target;
    const [row] = await this.db.run<{ id: string; code: string }>(
      byId ? 'RoomRepository.closeRoom' : 'RoomRepository.closeRoomByCode',
      `WITH closed AS (
         UPDATE rooms SET closed_at = now(), closed_reason = $2, phase = 'closed'
         WHERE ${byId ? 'id = $1::uuid' : 'code = $1::char(6)'} AND closed_at IS NULL
         RETURNING id, trim(code) AS code
       )
       SELECT id, code, pg_notify('${ROOM_CHANGES_CHANNEL}',
                                  json_build_object('roomId', id, 'code', code, 'change', 'closed', 'reason', $2::text)::text)
       FROM closed`,
      [byId ? target.roomId : target.code, reason],
    );
    return row ? { roomId: row.id, code: row.code } : null;
  }
}
