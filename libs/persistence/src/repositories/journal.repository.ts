import { Actor, RoomPosition, UnstorableStepError } from '@app/room-engine';
import { Database } from '../database';

export type JournalKind = 'command' | 'proposal' | 'signal' | 'late_deadline' | 'clock_held';
const KINDS: ReadonlySet<string> = new Set<JournalKind>(['command', 'proposal', 'signal', 'late_deadline', 'clock_held']);

/** An input the room accepted, as its rules took it. */
export interface JournalEntry {
  readonly kind: JournalKind;
  /** When the input arrived, on the room's clock (epoch ms). */
  readonly atMs: number;
  readonly actor: Actor | null;
  readonly commandId: string | null;
  /** What the rules were given. It may be any JSON except null. */
  readonly body: unknown;
}

/** An entry as it was recorded: the position of the statement that wrote it, and its place within that statement. */
export interface JournaledEntry extends JournalEntry {
  readonly seq: number;
  readonly idx: number;
}

/** A room's state at a game's boundary. It holds every entry up to `seq`, and the journal goes on after it. */
export interface Snapshot {
  readonly seq: number;
  readonly atMs: number;
  readonly state: unknown;
}

/** A game that ended. Its summary is the game's own JSON. */
export interface FinishedGame {
  readonly game: string;
  readonly gameNo: number;
  readonly summary: unknown;
  /**
   * The finished game's id, when the game chose it (for a results link it already told its
   * players). Otherwise the database picks a random one.
   */
  readonly id?: string;
}

export interface StoredResult extends FinishedGame {
  /** The public results id, random unless the game chose it. */
  readonly id: string;
  readonly roomId: string;
  readonly finishedAt: number;
}

export interface AppendOptions {
  /** The state after this statement's entries. It replaces the room's snapshot, at the statement's position. */
  readonly snapshot?: { readonly atMs: number; readonly state: unknown };
  readonly result?: FinishedGame;
  /** Set when the room is over, to the reason. The room is closed (and its code freed) in the same statement. */
  readonly closed?: string;
  /**
   * The statement's name, which is its metrics label and decides what merges with what. It is
   * `JournalRepository.append` unless given. Statements of one name from many rooms in one turn
   * share a round trip.
   */
  readonly name?: string;
}

/**
 * A value the journal cannot keep. It is refused before anything is sent, so that no other room's
 * statement fails with it.
 */
export class UnstorableJournalValueError extends UnstorableStepError {
  constructor(what: string, why: string) {
    super(`cannot journal ${what}: ${why}`);
    this.name = 'UnstorableJournalValueError';
  }
}

/** The most results one read returns. */
export const MAX_RESULTS_READ = 500;
/** The most entries one statement may write, because `idx` is a smallint. */
const MAX_ENTRIES_PER_STATEMENT = 32_767;

/**
 * The engine's generic persistence: the journal of accepted inputs, a snapshot per room, and
 * finished games. It knows no game: bodies, states and summaries are the rules' JSON.
 */
export class JournalRepository {
  constructor(private readonly db: Database) {}

  /**
   * Writes the room's new entries, with its snapshot and a finished game when given, in one
   * statement on the room's ordered path. The appends of many rooms sent in the same turn share
   * that statement. Returns the finished game's id, if a finished game was given. A snapshot
   * replaces the room's journal up to it: the same statement deletes the entries since the snapshot
   * it replaces, and journals none of its own entries (the snapshot is the room after them, with
   * the replies they were given).
   */
  async append(
    entries: readonly JournalEntry[],
    position: RoomPosition,
    timeoutMs?: number,
    options: AppendOptions = {},
  ): Promise<{ resultId?: string }> {
    if (entries.length > MAX_ENTRIES_PER_STATEMENT)
      throw new UnstorableJournalValueError('entries', `more than ${MAX_ENTRIES_PER_STATEMENT} in one statement`);
    const { roomId, seq } = position;
    const rows = entries.map((e, idx) => {
      if (!KINDS.has(e.kind))
        throw new UnstorableJournalValueError(`entry ${idx}`, `unknown kind ${JSON.stringify(String(e.kind).slice(0, 40))}`);
      if (!Number.isFinite(e.atMs)) throw new UnstorableJournalValueError(`entry ${idx}`, 'its arrival is not a finite number');
      if (e.body === null || e.body === undefined) throw new UnstorableJournalValueError(`entry ${idx}`, 'it has no body');
      return jsonText(
        { roomId, seq, idx, atMs: e.atMs, kind: e.kind, actor: e.actor, commandId: e.commandId, body: e.body },
        `entry ${idx}`,
      );
    });
    const { snapshot, result, closed } = options;
    if (snapshot && (snapshot.state === null || snapshot.state === undefined))
      throw new UnstorableJournalValueError('the snapshot', 'it has no state');
    // A snapshot is the room after this statement's entries, their replies included, and a load
    // reads only the journal after the snapshot. So those entries would be dead as soon as they
    // were written, and are not journaled.
    const journaled = snapshot ? [] : rows;
    if (result && (result.summary === null || result.summary === undefined))
      throw new UnstorableJournalValueError('the result', 'it has no summary');
    const snapshots = snapshot ? [jsonText({ roomId, seq, atMs: snapshot.atMs, state: snapshot.state }, 'the snapshot')] : [];
    // Each snapshot also deletes its room's journal before it. Those rooms travel in an array of their
    // own, so that the statement finds them without parsing the (large) snapshot states a second time.
    const cuts = snapshot ? [JSON.stringify({ roomId, seq })] : [];
    const results = result
      ? [jsonText({ roomId, id: result.id ?? null, game: result.game, gameNo: result.gameNo, summary: result.summary }, 'the result')]
      : [];
    const closes = closed === undefined ? [] : [jsonText({ roomId, reason: closed }, 'the close')];
    const returned = await this.db.write<{ roomId: string; id: string }>(
      {
        name: options.name ?? 'JournalRepository.append',
        // Data-modifying CTEs all run, whether read or not, so this is one statement and one round trip.
        sql: `WITH journal AS (
           INSERT INTO room_journal (room_id, seq, idx, at_ms, kind, actor, command_id, body)
           SELECT e."roomId", e.seq, e.idx, e."atMs", e.kind, e.actor, e."commandId", e.body
           FROM jsonb_to_recordset($1::jsonb)
                AS e("roomId" uuid, seq bigint, idx smallint, "atMs" float8, kind text, actor jsonb, "commandId" text, body jsonb)
         ), snapshot AS (
           INSERT INTO room_snapshots (room_id, seq, at_ms, state)
           SELECT s."roomId", s.seq, s."atMs", s.state
           FROM jsonb_to_recordset($2::jsonb) AS s("roomId" uuid, seq bigint, "atMs" float8, state jsonb)
           ON CONFLICT (room_id) DO UPDATE SET seq = excluded.seq, at_ms = excluded.at_ms, state = excluded.state
         ), superseded AS (
           -- A load reads a room's snapshot and the journal after it: the journal between the
           -- snapshot this one replaces (read here as it was before the statement) and this one
           -- goes with it, by the primary key. What is before the old one went with it.
           DELETE FROM room_journal j
           USING room_snapshots o JOIN jsonb_to_recordset($5::jsonb) AS n("roomId" uuid, seq bigint) ON o.room_id = n."roomId"
           WHERE j.room_id = o.room_id AND j.seq > o.seq AND j.seq < n.seq
         ), closed AS (
           UPDATE rooms r SET closed_at = now(), closed_reason = c.reason
           FROM jsonb_to_recordset($4::jsonb) AS c("roomId" uuid, reason text)
           -- OPEN_ROOM's spelling, for the primary key (see open-room.ts).
           WHERE r.id = c."roomId" AND num_nulls(r.closed_at) = 1
         )
         INSERT INTO finished_games (id, room_id, game, game_no, summary)
         SELECT coalesce(f.id, gen_random_uuid()), f."roomId", f.game, f."gameNo", f.summary
         FROM jsonb_to_recordset($3::jsonb) AS f("roomId" uuid, id uuid, game text, "gameNo" int, summary jsonb)
         RETURNING room_id AS "roomId", id`,
        // Send each array as one JSON text. pg sends a string as it is, whereas a text[] of JSON
        // texts would be escaped character by character.
        params: [journaled, snapshots, results, closes, cuts].map(jsonArray),
        position,
        // Each room's rows are its own elements of the five arrays, so merging means concatenating them.
        merge: (all) =>
          [0, 1, 2, 3, 4].map((i) => jsonArray(all.map((p) => (p[i] as string).slice(1, -1)).filter((inner) => inner !== ''))),
      },
      timeoutMs,
    );
    // A shared statement returns every room's results. This room's result is the one with its room id.
    const resultId = returned.find((r) => r.roomId === roomId)?.id;
    return resultId === undefined ? {} : { resultId };
  }

  /** One finished game by its id, if it finished within the last `keptDays` days (the life of the results link). */
  async result(id: string, keptDays: number, timeoutMs?: number): Promise<StoredResult | undefined> {
    const [row] = await this.db.run<StoredResult>(
      'JournalRepository.result',
      `SELECT ${RESULT_COLUMNS} FROM finished_games WHERE id = $1::uuid AND finished_at > now() - make_interval(days => $2::int)`,
      [id, keptDays],
      timeoutMs,
    );
    return row;
  }

  /** A room's finished games, in the order they were played. */
  async results(roomId: string, timeoutMs?: number): Promise<StoredResult[]> {
    return this.db.run<StoredResult>(
      'JournalRepository.results',
      `SELECT ${RESULT_COLUMNS} FROM finished_games WHERE room_id = $1 ORDER BY game_no LIMIT ${MAX_RESULTS_READ}`,
      [roomId],
      timeoutMs,
    );
  }

  /** The latest finished games of every room, newest first (at most MAX_RESULTS_READ). */
  async latestResults(limit: number, timeoutMs?: number): Promise<StoredResult[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULTS_READ)
      throw new RangeError(`limit must be an integer from 1 to ${MAX_RESULTS_READ}`);
    return this.db.run<StoredResult>(
      'JournalRepository.latestResults',
      `SELECT ${RESULT_COLUMNS} FROM finished_games ORDER BY finished_at DESC, id DESC LIMIT $1`,
      [limit],
      timeoutMs,
    );
  }
}

const RESULT_COLUMNS = `id, room_id AS "roomId", game, game_no AS "gameNo", summary, (extract(epoch FROM finished_at) * 1000)::float8 AS "finishedAt"`;

/**
 * Returns `value` as JSON that PostgreSQL's jsonb accepts. Of what JSON.stringify escapes, jsonb
 * refuses a NUL and a lone surrogate, and it would refuse them in the statement that every room of
 * the turn shares. So such an escape (one not itself behind an escaped backslash) is refused here,
 * for this room alone.
 */
function jsonText(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  // Run the pattern only on a text that has an escape at all (most have none).
  if (text.includes('\\u') && /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i.test(text)) {
    throw new UnstorableJournalValueError(what, 'it holds a NUL character or a lone surrogate');
  }
  return text;
}

/** Joins JSON texts (each one array element, or a comma-joined run of elements) into one JSON array's text. */
function jsonArray(elements: readonly string[]): string {
  return `[${elements.join(',')}]`;
}
