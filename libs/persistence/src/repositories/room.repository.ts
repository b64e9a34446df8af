import { RoomPosition } from '@app/room-engine';
import { Database } from '../database';
import { OPEN_ROOM } from './open-room';
import { JournaledEntry, Snapshot } from './journal.repository';

/** A room being opened: its game, the settings it was opened with, and its first state, where the journal starts. */
export interface NewRoom {
  readonly id: string;
  readonly code: string;
  readonly game: string;
  readonly seed: number;
  /** The settings the room was opened with, as the game's module parsed them. */
  readonly settings: unknown;
  /** For a host's deck: the copy of the deck the room plays from, kept once with the room and not in its snapshots. */
  readonly deck?: unknown;
  /** For a host's deck: the deck the copy was made from. The room names it, so the deck is kept while the room is. */
  readonly deckId?: string;
  /** For a built-in deck: the deck the room plays, by id and content hash. It is not copied, and `deck` is then unset. */
  readonly deckRef?: DeckReference;
  /**
   * The room's state as it opens, with no replies kept for resends. It is the room's first
   * snapshot, taken before its first statement (at position -1).
   */
  readonly snapshot: { readonly atMs: number; readonly state: unknown };
}

/** A built-in deck as a room names it: its id, and the SHA-256 of the content the room opened with. */
export interface DeckReference {
  readonly id: string;
  readonly hash: string;
}

export type OpenRoomResult = 'created' | 'code_taken';

/** A room as its actor needs it on activation: which game, its seed, and its snapshot and journal. */
export interface StoredRoom {
  readonly roomId: string;
  readonly code: string;
  readonly game: string;
  readonly seed: number;
  readonly createdAt: number;
  /**
   * How many of the room's statements have been applied so far. The actor's next statement goes
   * after them (see the ordered-commits migration).
   */
  readonly commitSeq: number;
  /** The fencing number of the lease this load took, or the room's current one if the load took none. */
  readonly fence: number;
  /** For an open room whose lease another instance holds, that instance. The room may not be served here now. */
  readonly heldBy: string | null;
  /** Why the room was closed, if it is closed. */
  readonly closedReason: string | null;
  /**
   * Set when the room closed longer ago than its results window. Its journal, snapshot and deck copy
   * are gone, and so is the room.
   */
  readonly pruned: boolean;
  /** The copy of the deck the room plays from, if it plays from a copy. */
  readonly deck: unknown;
  /** The built-in deck the room plays from, if it references one instead. */
  readonly deckRef: DeckReference | null;
  /**
   * The room's latest snapshot. There is none for a room opened before the journal existed (its
   * game's old record holds it), nor for a closed room past its results window (its journal and
   * snapshot were pruned).
   */
  readonly snapshot: Snapshot | null;
  /** The journal after the snapshot, in order. */
  readonly entries: readonly JournaledEntry[];
}

/** The lease a load takes for `owner`. It lasts `ms`, and the owner's beat renews it. */
export interface RoomLease {
  readonly owner: string;
  readonly ms: number;
  /** Whether another instance's lapsed lease may be taken (and a held one asked for). Default true. */
  readonly takeLapsed?: boolean;
}

export interface ClosedRoom {
  readonly roomId: string;
  readonly code: string;
}

/** The channel on which a change made outside a room's actor reaches it. */
export const ROOM_CHANGES_CHANNEL = 'room_changes';

export class RoomRepository {
  constructor(private readonly db: Database) {}

  /**
   * Opens a room with its first snapshot, in one statement. A code that an open room already has
   * is refused with `code_taken` (the caller picks another and retries), and then nothing is
   * written.
   */
  async openRoom(room: NewRoom, timeoutMs?: number): Promise<OpenRoomResult> {
    const [row] = await this.db.run<{ created: number }>(
      'RoomRepository.openRoom',
      `WITH created AS (
         INSERT INTO rooms (id, code, game, seed, settings, deck, deck_id, deck_hash) VALUES ($1, $2, $3, $4, $5, $8, $9, $10)
         ON CONFLICT (code) WHERE closed_at IS NULL DO NOTHING
         RETURNING id
       ), snapshot AS (
         INSERT INTO room_snapshots (room_id, seq, at_ms, state) SELECT id, -1, $6, $7 FROM created
       )
       SELECT count(*)::int AS created FROM created`,
      [
        room.id,
        room.code,
        room.game,
        room.seed,
        JSON.stringify(room.settings),
        room.snapshot.atMs,
        JSON.stringify({ state: room.snapshot.state, replies: [] }),
        room.deck === undefined ? null : JSON.stringify(room.deck),
        room.deckRef?.id ?? room.deckId ?? null,
        room.deckRef?.hash ?? null,
      ],
      timeoutMs,
      // If the answer is lost, the write was recorded when the room is there (its id is this call's own).
      { sql: 'SELECT 1 AS created FROM rooms WHERE id = $1', params: [room.id] },
    );
    return row.created === 1 ? 'created' : 'code_taken';
  }

  /**
   * Loads many rooms in one statement, so that rooms that activate together share a round trip.
   * With each room comes what its recovery needs: its latest snapshot and the journal after it.
   *
   * With `lease`, the same statement takes each open room's lease for `lease.owner` and raises its
   * fencing number. It takes a lease that is free, already the owner's, or held by an instance that
   * stopped or has not beaten for `lease.ms`. An open room whose lease another live instance holds
   * comes back with `heldBy`, and is asked for (`wanted_by`), so its holder hands it over at its next
   * beat. Without `lease.takeLapsed`, only a free lease, the owner's own, or a stopped instance's is
   * taken, and nothing is asked for. A taker sets it to false when it is itself just back from an
   * outage, because the holder whose lease lapsed was then most likely cut off as well, and is
   * about to renew it.
   */
  async loadRooms(codes: readonly string[], timeoutMs?: number, lease?: RoomLease): Promise<StoredRoom[]> {
    return await this.db.run<StoredRoom>(
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
       SELECT r.id AS "roomId", trim(r.code) AS code, r.game, r.seed, (extract(epoch FROM r.created_at) * 1000)::float8 AS "createdAt",
              coalesce(rh.commit_seq, 0)::float8 AS "commitSeq", coalesce(t.lease_fence, rh.lease_fence, 0)::float8 AS fence,
              CASE WHEN $2::text IS NOT NULL AND t.id IS NULL AND r.closed_at IS NULL THEN rh.lease_owner END AS "heldBy",
              CASE WHEN r.closed_at IS NOT NULL THEN coalesce(r.closed_reason, 'closed') END AS "closedReason",
              CASE WHEN r.closed_at IS NULL THEN r.deck END AS deck,
              CASE WHEN r.deck_hash IS NOT NULL THEN json_build_object('id', r.deck_id, 'hash', r.deck_hash) END AS "deckRef",
              r.pruned_at IS NOT NULL AS pruned,
              CASE WHEN s.room_id IS NULL THEN NULL
                   ELSE json_build_object('seq', s.seq::float8, 'atMs', s.at_ms, 'state', s.state) END AS snapshot,
              coalesce((SELECT json_agg(json_build_object('seq', j.seq::float8, 'idx', j.idx, 'atMs', j.at_ms, 'kind', j.kind,
                                                          'actor', j.actor, 'commandId', j.command_id, 'body', j.body) ORDER BY j.seq, j.idx)
                        FROM room_journal j WHERE r.closed_at IS NULL AND j.room_id = r.id AND j.seq > coalesce(s.seq, -1)), '[]') AS entries
       FROM (SELECT DISTINCT ON (code) * FROM rooms WHERE code = ANY($1::char(6)[])
             ORDER BY code, (closed_at IS NULL) DESC, created_at DESC) AS r
       LEFT JOIN taken t ON t.id = r.id
       LEFT JOIN room_heads rh ON rh.room_id = r.id
       -- A closed room comes back as its row alone: nothing rebuilds it (its snapshot, journal and deck are not read).
       LEFT JOIN room_snapshots s ON s.room_id = r.id AND r.closed_at IS NULL`,
      [codes, lease?.owner ?? null, lease?.ms ?? 0, lease?.takeLapsed ?? true],
      timeoutMs,
    );
  }

  /**
   * Returns those of these codes that an open room has, with one index read and no snapshot,
   * journal or lease. Rooms asked for past the live-room cap are sorted with it, so that an unknown
   * or closed code never takes a real room's place.
   */
  async openCodes(codes: readonly string[], timeoutMs?: number): Promise<string[]> {
    const rows = await this.db.run<{ code: string }>(
      'RoomRepository.openCodes',
      'SELECT trim(code) AS code FROM rooms WHERE code = ANY($1::char(6)[]) AND closed_at IS NULL',
      [codes],
      timeoutMs,
    );
    return rows.map((r) => r.code);
  }

  /**
   * Gives up `owner`'s leases on these rooms (during a drain), so that another instance may take
   * them at once. It runs on the cluster's own connections, as the heartbeat's statements do.
   */
  async releaseLeases(owner: string, rooms: readonly { id: string; fence: number }[], timeoutMs?: number): Promise<void> {
    await this.db.runForCluster(
      'RoomRepository.releaseLeases',
      `UPDATE room_heads h SET lease_owner = NULL
       FROM unnest($2::uuid[], $3::bigint[]) AS l(id, fence)
       WHERE h.room_id = l.id AND h.lease_owner = $1 AND h.lease_fence = l.fence`,
      [owner, rooms.map((r) => r.id), rooms.map((r) => r.fence)],
      timeoutMs,
    );
  }

  /**
   * Closes an open room and tells its actor, wherever it runs, through NOTIFY, in one statement.
   * Returns null when no open room matched.
   */
  async closeRoom(
    target: { roomId: string } | { code: string },
    reason: string,
    timeoutMs?: number,
    position?: RoomPosition,
  ): Promise<ClosedRoom | null> {
    const byId = 'roomId' in target;
    const [row] = await this.db.write<{ id: string; code: string }>(
      {
        name: byId ? 'RoomRepository.closeRoom' : 'RoomRepository.closeRoomByCode',
        sql: `WITH closed AS (
         UPDATE rooms SET closed_at = now(), closed_reason = $2
         WHERE ${byId ? `id = $1::uuid AND ${OPEN_ROOM}` : 'code = $1::char(6) AND closed_at IS NULL'}
         RETURNING id, trim(code) AS code
       )
       SELECT id, code, pg_notify('${ROOM_CHANGES_CHANNEL}',
                                  json_build_object('roomId', id, 'code', code, 'change', 'closed', 'reason', $2::text)::text)
       FROM closed`,
        params: [byId ? target.roomId : target.code, reason],
        position,
        // If the answer of a close over HTTP is lost, the close was recorded when the room is
        // closed for this reason. The caller then hears the truth, and closing a closed room again
        // is no error. By code, an older room that had the code and closed for the same reason
        // does not count while a room with that code is still open.
        check: {
          sql: byId
            ? `SELECT id, trim(code) AS code FROM rooms WHERE id = $1::uuid AND closed_at IS NOT NULL AND closed_reason = $2`
            : `SELECT id, trim(code) AS code FROM rooms
               WHERE code = $1::char(6) AND closed_reason = $2
                 AND NOT EXISTS (SELECT 1 FROM rooms o WHERE o.code = $1::char(6) AND o.closed_at IS NULL)
               ORDER BY closed_at DESC LIMIT 1`,
          params: [byId ? target.roomId : target.code, reason],
        },
      },
      timeoutMs,
    );
    return row ? { roomId: row.id, code: row.code } : null;
  }
}
