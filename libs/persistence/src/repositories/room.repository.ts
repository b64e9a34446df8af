import { RoomPosition } from '@app/room-engine';
import { CardsRecord } from '@app/games/cards';
import { TriviaRecord } from '@app/games/trivia';
import { Database } from '../database';
import { OPEN_ROOM } from './open-room';

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

/** A room as its actor needs it on activation: which game, its seed, and the game's own record. */
export type StoredRoom = {
  readonly seed: number;
  readonly createdAt: number;
  /** The room's statements applied so far: where the actor's next one goes (see the ordered-commits migration). */
  readonly commitSeq: number;
  /** The fencing number of the lease this load took (the room's current one if it took none). */
  readonly fence: number;
  /** An open room whose lease another instance holds: it may not be served here now. */
  readonly heldBy: string | null;
} & (
  | { readonly game: 'trivia'; readonly record: TriviaRecord }
  | { readonly game: 'cards'; readonly record: CardsRecord }
);

/** The lease a load takes for `owner`: `ms` long, renewed by the owner's beat. */
export interface RoomLease {
  readonly owner: string;
  readonly ms: number;
  /** May another instance's lapsed lease be taken (and a held one asked for)? Default true. */
  readonly takeLapsed?: boolean;
}

export interface ClosedRoom {
  readonly roomId: string;
  readonly code: string;
}

/**
 * A card table's record (libs/games/cards' CardsRecord), built in the statement that loads rooms:
 * the human's actions and rebuys since the checkpoint, and every acknowledged command's reply.
 */
const CARDS_RECORD = `json_build_object(
  'tableId', r.id, 'code', trim(r.code), 'playerId', r.player_id, 'settings', r.table_settings,
  'closed', r.closed_at IS NOT NULL, 'checkpoint', r.checkpoint,
  'actions', coalesce((SELECT json_agg(json_build_object('hand', a.hand, 'seq', a.seq, 'action', a.action, 'amount', a.amount,
                                                         'at', a.at_ms, 'commandId', a.command_id) ORDER BY a.hand, a.seq)
                       FROM table_actions a WHERE a.room_id = r.id AND a.hand > (r.checkpoint->>'number')::int), '[]'),
  'rebuys', coalesce((SELECT json_agg(json_build_object('afterHand', b.after_hand, 'stack', b.stack, 'at', b.at_ms, 'commandId', b.command_id) ORDER BY b.at_ms)
                      FROM table_rebuys b WHERE b.room_id = r.id AND b.after_hand = (r.checkpoint->>'number')::int), '[]'),
  'acknowledged', (SELECT coalesce(json_agg(k.ack), '[]') FROM (
                     SELECT json_build_object('commandId', a.command_id, 'reply', '{}'::json) AS ack FROM table_actions a WHERE a.room_id = r.id
                     UNION ALL
                     SELECT json_build_object('commandId', b.command_id, 'reply', json_build_object('stack', b.stack)) FROM table_rebuys b WHERE b.room_id = r.id
                     UNION ALL
                     SELECT json_build_object('commandId', r.closed_command_id, 'reply', '{}'::json) WHERE r.closed_command_id IS NOT NULL) AS k),
  'lateDeadlines', coalesce((SELECT json_agg(json_build_object('due', l.due_ms, 'at', l.taken_at_ms) ORDER BY l.taken_at_ms)
                             FROM late_deadlines l WHERE l.room_id = r.id), '[]'))`;

// PostgreSQL's bigint question ids arrive as strings.
function triviaRecord(record: TriviaRecord): TriviaRecord {
  const raw = record as TriviaRecord & { playedQuestionIds: unknown[] };
  return {
    ...record,
    playedQuestionIds: raw.playedQuestionIds.map(Number),
    lastGame: record.lastGame && { ...record.lastGame, questions: record.lastGame.questions.map((q) => ({ ...q, id: Number(q.id) })) },
  };
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

  /**
   * Loads many rooms in one statement: rooms that activate together share a round trip. With each
   * room comes what its recovery needs: its seats, and its last game with every answer, early
   * close and vote, each with the time the server recorded for it.
   *
   * With `lease`, the same statement takes each open room's lease for `lease.owner` (free, already
   * its own, or held by an instance that stopped or has not beaten for `lease.ms`), raising its
   * fencing number; an open room whose lease another live instance holds comes back with `heldBy`,
   * and is asked for (`wanted_by`): its holder hands it over at its next beat. Without
   * `lease.takeLapsed` (the taker itself is just back from an outage, so the holder whose lease
   * lapsed was most likely cut off as well and is about to renew it) only a free lease, its own,
   * or a stopped instance's is taken, and nothing is asked for.
   */
  async loadRooms(codes: readonly string[], timeoutMs?: number, lease?: RoomLease): Promise<StoredRoom[]> {
    const ms = (col: string, fallback: string) => `coalesce(${col}, extract(epoch FROM ${fallback}) * 1000)::float8`;
    const rows = await this.db.run<StoredRoom>(
      'RoomRepository.loadRooms',
      `WITH taken AS (
         UPDATE room_heads h SET lease_owner = $2, lease_fence = h.lease_fence + 1, wanted_by = NULL
         FROM rooms o
         WHERE $2::text IS NOT NULL AND o.id = h.room_id AND o.code = ANY($1::char(6)[]) AND o.closed_at IS NULL
           -- Free, already ours, or its owner's lease ran out: that instance stopped, or has not
           -- beaten for a whole lease (one beat renews every lease an instance holds).
           AND (h.lease_owner IS NULL OR h.lease_owner = $2 OR NOT EXISTS (
                  SELECT 1 FROM instances i WHERE i.name = h.lease_owner AND i.health <> 'stopped'
                  AND (NOT $4::boolean OR i.last_seen > now() - make_interval(secs => $3::float8 / 1000))))
         RETURNING h.room_id AS id, h.lease_fence
       ), wanted AS (
         -- Held by another live instance: ask for it (migration 1764842400000); its holder's next
         -- beat hands it over, and the room's clients, reconnecting through the proxy, come here.
         UPDATE room_heads h SET wanted_by = $2
         FROM rooms o
         WHERE $2::text IS NOT NULL AND $4::boolean AND o.id = h.room_id AND o.code = ANY($1::char(6)[]) AND o.closed_at IS NULL
           AND h.lease_owner IS DISTINCT FROM $2 AND h.wanted_by IS DISTINCT FROM $2
           AND h.room_id NOT IN (SELECT id FROM taken)
       )
       SELECT r.game, r.seed, (extract(epoch FROM r.created_at) * 1000)::float8 AS "createdAt", coalesce(rh.commit_seq, 0)::float8 AS "commitSeq",
              coalesce(t.lease_fence, rh.lease_fence, 0)::float8 AS fence,
              CASE WHEN $2::text IS NOT NULL AND t.id IS NULL AND r.closed_at IS NULL THEN rh.lease_owner END AS "heldBy",
              CASE r.game WHEN 'cards' THEN ${CARDS_RECORD} ELSE json_build_object(
                'roomId', r.id, 'code', trim(r.code), 'hostName', r.host_name,
                'settings', json_build_object('deckId', r.deck_id, 'questionCount', r.question_count,
                                              'secondsPerQuestion', r.seconds_per_question, 'revealSeconds', r.reveal_seconds,
                                              'maxPlayers', r.max_players, 'minPlayers', r.min_players),
                'phase', r.phase, 'closed', r.closed_at IS NOT NULL, 'gamesPlayed', r.games_played,
                'lastGameAt', (extract(epoch FROM r.last_game_at) * 1000)::float8,
                'playedQuestionIds', coalesce((SELECT array_agg(qid) FROM games g, unnest(g.question_ids) AS qid WHERE g.room_id = r.id), '{}'),
                'players', coalesce((
                  SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'left',
                           CASE WHEN p.left_at IS NULL THEN NULL
                                ELSE json_build_object('at', ${ms('p.left_at_ms', 'p.left_at')}, 'reason', p.left_reason, 'commandId', p.left_command_id) END)
                         ORDER BY p.joined_at, p.id)
                  FROM players p
                  WHERE p.room_id = r.id AND (p.left_at IS NULL OR (lg.id IS NOT NULL AND p.left_at >= lg.started_at))), '[]'),
                'lastGame', CASE WHEN lg.id IS NULL THEN NULL ELSE json_build_object(
                  'id', lg.id, 'no', lg.game_no, 'roster', lg.roster,
                  'startedAt', ${ms('lg.started_at_ms', 'lg.started_at')}, 'startCommandId', lg.start_command_id,
                  'questions', (SELECT json_agg(json_build_object('id', q.id, 'text', q.text, 'choices', q.choices, 'correct', q.correct) ORDER BY o.ord)
                                FROM unnest(lg.question_ids) WITH ORDINALITY AS o(qid, ord) JOIN questions q ON q.id = o.qid),
                  'answers', coalesce((SELECT json_agg(json_build_object('playerId', a.player_id, 'question', a.question_index, 'choice', a.choice,
                                                                         'at', ${ms('a.answered_at_ms', 'a.answered_at')}, 'commandId', a.command_id))
                                       FROM answers a WHERE a.game_id = lg.id), '[]'),
                  'closes', coalesce((SELECT json_agg(json_build_object('index', c.question_index, 'at', c.closed_at_ms))
                                      FROM question_closes c WHERE c.game_id = lg.id), '[]'),
                  'votes', coalesce((SELECT json_agg(json_build_object('playerId', v.player_id, 'vote', v.vote,
                                                                       'at', ${ms('v.voted_at_ms', 'v.voted_at')}, 'commandId', v.command_id))
                                     FROM rematch_votes v WHERE v.game_id = lg.id), '[]')) END,
                'lateDeadlines', coalesce((SELECT json_agg(json_build_object('due', l.due_ms, 'at', l.taken_at_ms) ORDER BY l.taken_at_ms)
                                           FROM late_deadlines l WHERE l.room_id = r.id), '[]')
              ) END AS record
       FROM (SELECT DISTINCT ON (code) * FROM rooms WHERE code = ANY($1::char(6)[])
             ORDER BY code, (closed_at IS NULL) DESC, created_at DESC) AS r
       LEFT JOIN LATERAL (SELECT * FROM games g WHERE g.room_id = r.id ORDER BY g.game_no DESC LIMIT 1) AS lg ON true
       LEFT JOIN taken t ON t.id = r.id
       LEFT JOIN room_heads rh ON rh.room_id = r.id`,
      [codes, lease?.owner ?? null, lease?.ms ?? 0, lease?.takeLapsed ?? true],
      timeoutMs,
    );
    return rows.map((r) => (r.game === 'cards' ? r : { ...r, record: triviaRecord(r.record) }));
  }

  /** Gives up `owner`'s leases on these rooms (a drain), so that another instance may take them at once. */
  async releaseLeases(owner: string, rooms: readonly { id: string; fence: number }[], timeoutMs?: number): Promise<void> {
    await this.db.run(
      'RoomRepository.releaseLeases',
      `UPDATE room_heads h SET lease_owner = NULL
       FROM unnest($2::uuid[], $3::bigint[]) AS l(id, fence)
       WHERE h.room_id = l.id AND h.lease_owner = $1 AND h.lease_fence = l.fence`,
      [owner, rooms.map((r) => r.id), rooms.map((r) => r.fence)],
      timeoutMs,
    );
  }

  /** A deadline the room took late, after a restart; taken again later, the later moment counts. */
  async recordLateDeadline(roomId: string, due: number, at: number, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'RoomRepository.recordLateDeadline',
        sql: `INSERT INTO late_deadlines (room_id, due_ms, taken_at_ms) VALUES ($1, $2, $3)
       ON CONFLICT (room_id, due_ms) DO UPDATE SET taken_at_ms = excluded.taken_at_ms`,
        params: [roomId, due, at],
        position,
      },
      timeoutMs,
    );
  }

  /**
   * Closes an open room and tells its actor, wherever it runs, through NOTIFY, in one statement.
   * Returns null when no open room matched.
   */
  async closeRoom(target: { roomId: string } | { code: string }, reason: string, timeoutMs?: number, position?: RoomPosition): Promise<ClosedRoom | null> {
    const byId = 'roomId' in target;
    const [row] = await this.db.write<{ id: string; code: string }>(
      {
        name: byId ? 'RoomRepository.closeRoom' : 'RoomRepository.closeRoomByCode',
        sql: `WITH closed AS (
         UPDATE rooms SET closed_at = now(), closed_reason = $2, phase = 'closed'
         WHERE ${byId ? `id = $1::uuid AND ${OPEN_ROOM}` : 'code = $1::char(6) AND closed_at IS NULL'}
         RETURNING id, trim(code) AS code
       )
       SELECT id, code, pg_notify('${ROOM_CHANGES_CHANNEL}',
                                  json_build_object('roomId', id, 'code', code, 'change', 'closed', 'reason', $2::text)::text)
       FROM closed`,
        params: [byId ? target.roomId : target.code, reason],
        position,
      },
      timeoutMs,
    );
    return row ? { roomId: row.id, code: row.code } : null;
  }
}
