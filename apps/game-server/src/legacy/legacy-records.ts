import { Database } from '@app/persistence';

// Rooms opened before the journal (migration 1764849600000) have no snapshot: their games' old
// tables hold them. A room still open at the upgrade is read from those once, in the record its
// game's module restores (`GameModule.legacy`), and its first statement snapshots it. This file
// and the old tables go once no such room is left open.

/** A room's old record, in the shape its game's legacy restore reads. */
export interface LegacyRecord {
  readonly roomId: string;
  readonly record: unknown;
}

/** A card table, as the old loader built it. */
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


const ms = (col: string, fallback: string) => `coalesce(${col}, extract(epoch FROM ${fallback}) * 1000)::float8`;

/** A trivia room, as the old loader built it: its seats, and its last game with every answer, early close and vote. */
const TRIVIA_RECORD = `json_build_object(
                'roomId', r.id, 'code', trim(r.code), 'hostName', r.host_name,
                -- The old rooms read their deck when a game started: the room takes its copy now.
                'deck', (SELECT coalesce(json_agg(json_build_object('id', q.id, 'text', q.text, 'choices', q.choices, 'correct', q.correct) ORDER BY q.position), '[]')
                         FROM questions q WHERE q.deck_id = r.deck_id),
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
              )`;

/** The old records of these rooms, in one statement (rooms without one are left out). */
export async function loadLegacyRecords(db: Database, roomIds: readonly string[], timeoutMs?: number): Promise<LegacyRecord[]> {
  if (roomIds.length === 0) return [];
  const rows = await db.run<LegacyRecord & { game: string }>(
    'LegacyRecords.load',
    `SELECT r.id AS "roomId", r.game, CASE r.game WHEN 'cards' THEN ${CARDS_RECORD} ELSE ${TRIVIA_RECORD} END AS record
     FROM rooms r
     LEFT JOIN LATERAL (SELECT * FROM games g WHERE g.room_id = r.id ORDER BY g.game_no DESC LIMIT 1) AS lg ON true
     WHERE r.id = ANY($1::uuid[]) AND r.settings IS NULL`,
    [roomIds],
    timeoutMs,
  );
  return rows.map((r) => ({ roomId: r.roomId, record: r.game === 'cards' ? r.record : numericIds(r.record) }));
}

// PostgreSQL's bigint question ids arrive as strings.
function numericIds(record: any): unknown {
  return {
    ...record,
    playedQuestionIds: record.playedQuestionIds.map(Number),
    deck: record.deck.map((q: { id: unknown }) => ({ ...q, id: Number(q.id) })),
    lastGame: record.lastGame && { ...record.lastGame, questions: record.lastGame.questions.map((q: { id: unknown }) => ({ ...q, id: Number(q.id) })) },
  };
}
