import { ClientConfig, QueryResultRow } from 'pg';
import { RoomOutOfOrderError, RoomPosition } from '@app/room-engine';
import { CommitLane, LaneBroken, OutcomeUnknown } from './commit-lane';
import { OutcomeSettler } from './outcome-settler';
import { StatementMeter } from './statement-meter';

/** A write of one or more rooms, sent on their ordered path. */
export interface OrderedStatement {
  readonly name: string;
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The room whose history this statement extends, and where that history stands. */
  readonly position: RoomPosition;
  /**
   * Statements of the same name from different rooms, sent in the same turn of the event loop, may
   * travel as one. This says how their params combine into the one statement's params: answers of
   * many rooms in one insert, for example. That is what keeps PostgreSQL's work per answer low
   * when many rooms are busy.
   */
  readonly merge?: (params: readonly (readonly unknown[])[]) => unknown[];
}

/**
 * The guard that opens every unit's transaction. It advances each room's `commit_seq` when the
 * room is at the position and fence its statement was decided at. Otherwise it refuses the whole
 * unit with GR001, whose DETAIL lists the rooms that were not. Rooms are found by primary key
 * (`= ANY`), never by a join with `unnest`: the planner cannot size that join, and it answered with
 * a scan of every room's row. PL/pgSQL runs only to refuse (migration 1764838800000).
 */
const ADVANCE = {
  name: 'guard_rooms',
  text: `WITH advanced AS (
    UPDATE room_heads h SET commit_seq = h.commit_seq + 1
    WHERE h.room_id = ANY($1::uuid[])
      AND h.commit_seq = ($2::bigint[])[array_position($1::uuid[], h.room_id)]
      AND h.lease_fence = ($3::bigint[])[array_position($1::uuid[], h.room_id)]
    RETURNING h.room_id
  )
  SELECT refuse_rooms_out_of_order($1::uuid[], array_agg(room_id)) FROM advanced HAVING count(*) < cardinality($1::uuid[])`,
};
const OUT_OF_ORDER = 'GR001';

/** A room's statements whose outcome is being settled (`units` of them), and the statements that wait behind them. */
interface Doubt {
  units: number;
  readonly waiting: Waiting[];
  /** True while every statement settled so far was recorded. */
  recorded: boolean;
}

interface Waiting {
  readonly statement: OrderedStatement;
  readonly deadline: number;
  readonly resolve: (rows: QueryResultRow[]) => void;
  readonly reject: (err: unknown) => void;
}

export interface OrderedFailure {
  /** Builds a failure the caller sees as "the database is unavailable" (nothing was recorded; retry later). */
  unavailable(statement: string, cause: unknown): Error;
  isConnectionError(err: unknown): boolean;
}

/**
 * The ordered path of rooms' writes, over a few pipelined connections (lanes). While a room has a
 * statement in flight, its next statements follow on the same lane, so they reach PostgreSQL in
 * the order they were decided, without waiting for each other. A room with nothing in flight may
 * start on any lane, because its earlier statements have all answered. Every such room of one
 * turn takes the same lane (the least busy one). What is sent in one turn leaves at the end of
 * that turn, in order, and same-named statements of different rooms merge where that keeps every
 * room's order. So busy rooms' answers share statements as they did before lanes existed (fewer
 * transactions are most of what saves PostgreSQL work per answer), and a lane that is slow gets
 * no new rooms.
 *
 * A statement's budget bounds only how long it may wait to leave. Once written, it is answered
 * with what PostgreSQL did. If its lane breaks or goes silent first, its outcome is unknown, and
 * it is settled (OutcomeSettler) before its caller hears anything. If it was recorded, it succeeds
 * (late); if not, it fails as unavailable, truthfully. Meanwhile the room's later statements wait,
 * because if they were sent they would extend a position the database may not have reached.
 */
export class OrderedStatements {
  private readonly lanes: CommitLane[];
  private readonly waiting: Waiting[][];
  private readonly scheduled: boolean[];
  /** The lane of every room with a statement queued or in flight, and how many statements it has there. */
  private readonly held = new Map<string, { readonly lane: number; statements: number }>();
  /** Rooms with statements whose outcome is being settled, and their statements that wait for the outcome. */
  private readonly inDoubt = new Map<string, Doubt>();
  /** The lane that this turn's rooms with nothing in flight go to, until that lane flushes. */
  private gathering: number | undefined;
  /** Whether PostgreSQL is believed reachable. While it is not, nothing is written (see `sendable`). */
  private reachable: () => boolean = () => true;

  constructor(
    config: ClientConfig,
    laneCount: number,
    connectTimeoutMs: number,
    /** How long PostgreSQL may stay silent on a lane with statements in flight before the lane is reset. */
    silenceMs: number,
    private readonly meter: StatementMeter,
    private readonly failure: OrderedFailure,
    private readonly settler: OutcomeSettler,
  ) {
    this.lanes = Array.from({ length: laneCount }, () => new CommitLane(config, connectTimeoutMs, silenceMs));
    this.waiting = this.lanes.map(() => []);
    this.scheduled = this.lanes.map(() => false);
  }

  run<T extends QueryResultRow>(statement: OrderedStatement, timeoutMs: number): Promise<T[]> {
    const lane = this.take(statement.position.roomId);
    return new Promise<T[]>((resolve, reject) => {
      this.waiting[lane].push({
        statement,
        deadline: performance.now() + timeoutMs,
        resolve: resolve as (rows: QueryResultRow[]) => void,
        reject,
      });
      if (this.scheduled[lane]) return;
      this.scheduled[lane] = true;
      setImmediate(() => this.flush(lane));
    });
  }

  private take(roomId: string): number {
    const held = this.held.get(roomId);
    if (held) {
      held.statements++;
      return held.lane;
    }
    this.gathering ??= this.leastBusyLane();
    this.held.set(roomId, { lane: this.gathering, statements: 1 });
    return this.gathering;
  }

  /** Called when a statement of the room answered or failed. When the room has none left, it is free of its lane. */
  private settled(roomId: string): void {
    const held = this.held.get(roomId);
    if (held && --held.statements === 0) this.held.delete(roomId);
  }

  /**
   * The connected lane with the fewest units in flight, taking the first among equals. A quiet
   * server thus keeps to its first lanes, whose connections have their plans and caches warm (a
   * backend's first statements cost PostgreSQL more), and more lanes come into use as load grows.
   * Lanes not connected yet are opened in the background and used once they are connected, because
   * a room placed on one would wait for its connection. When no lane is connected, it returns the
   * first, which then connects.
   */
  private leastBusyLane(): number {
    let best: number | undefined;
    for (let lane = 0; lane < this.lanes.length; lane++) {
      const l = this.lanes[lane];
      if (!l.ready) {
        l.warm();
        continue;
      }
      if (best === undefined || l.inFlight < this.lanes[best].inFlight) best = lane;
    }
    return best ?? 0;
  }

  /**
   * Says where the process learns whether PostgreSQL is reachable (its heartbeat). While it is
   * not, statements are refused before they are written. A statement written into a silent link
   * could not be answered, nor settled, until the link is back, and its command would wait that long.
   */
  writeOnlyWhile(reachable: () => boolean): void {
    this.reachable = reachable;
  }

  /** Opens every lane in the background, so that the first rooms' statements do not wait for a connection. */
  warm(): void {
    for (const lane of this.lanes) lane.warm();
  }

  /** How many statements are in flight, over every lane. */
  get inFlight(): number {
    return this.lanes.reduce((n, l) => n + l.inFlight, 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.close()));
  }

  private flush(lane: number): void {
    this.scheduled[lane] = false;
    if (this.gathering === lane) this.gathering = undefined;
    const waiting: Waiting[] = [];
    for (const w of this.waiting[lane].splice(0)) {
      const doubt = this.inDoubt.get(w.statement.position.roomId);
      if (doubt) doubt.waiting.push(w);
      else waiting.push(w);
    }
    const units = mergeInOrder(this.sendable(waiting));
    this.lanes[lane].together(() => {
      for (const unit of units) void this.send(lane, unit);
    });
  }

  /**
   * Refuses here, on its own, each statement whose command's budget ran out before it could leave,
   * along with every later statement of the same room (each extends a position the refused one
   * never reached). If such a statement were merged into a unit, it would refuse the whole unit,
   * including other rooms' statements with time to spare. Under load, that was most of the 503s.
   */
  private sendable(waiting: readonly Waiting[]): Waiting[] {
    const now = performance.now();
    const reachable = this.reachable();
    const late = new Set<string>();
    const sendable: Waiting[] = [];
    for (const w of waiting) {
      const room = w.statement.position.roomId;
      if (reachable && w.deadline > now && !late.has(room)) {
        sendable.push(w);
        continue;
      }
      late.add(room);
      this.settled(room);
      const why = reachable ? 'no time left to send the statement' : 'PostgreSQL is unreachable (the heartbeat says so); nothing was sent';
      w.reject(this.failure.unavailable(w.statement.name, new LaneBroken(why)));
    }
    return sendable;
  }

  private async send(lane: number, unit: Waiting[]): Promise<void> {
    const first = unit[0].statement;
    const started = process.hrtime.bigint();
    const positions = unit.map((w) => w.statement.position);
    // Only a lane that must connect first uses this limit. Once a unit is written, it waits for its answer.
    const connectWithinMs = Math.min(...unit.map((w) => w.deadline)) - performance.now();
    this.meter.roundTrip(first.name);
    let ok = false;
    try {
      const params = unit.length === 1 ? first.params : first.merge!(unit.map((w) => w.statement.params));
      const [, rows] = await this.lanes[lane].send(
        [
          { ...ADVANCE, values: [positions.map((p) => p.roomId), positions.map((p) => p.seq), positions.map((p) => p.fence)] },
          { name: first.name, text: first.sql, values: params },
        ],
        connectWithinMs,
      );
      ok = true;
      for (const w of unit) this.settled(w.statement.position.roomId);
      for (const w of unit) w.resolve(rows);
    } catch (err) {
      if (err instanceof OutcomeUnknown) return void this.settle(lane, unit, err);
      for (const w of unit) this.settled(w.statement.position.roomId);
      for (const w of unit) w.reject(this.describe(err, w.statement));
    } finally {
      this.meter.statement(first.name, Number(process.hrtime.bigint() - started) / 1e9, ok);
    }
  }

  /**
   * Settles a unit whose answer was lost. Its rooms' later statements wait while the database is
   * asked whether the unit committed. Either all of it did or none did, because it is one
   * transaction. Each of its callers then hears the truth. A committed unit resolves with no rows,
   * because its answer is gone.
   */
  private async settle(lane: number, unit: Waiting[], lost: OutcomeUnknown): Promise<void> {
    const rooms = unit.map((w) => w.statement.position.roomId);
    for (const room of rooms) {
      const doubt = this.inDoubt.get(room);
      if (doubt) doubt.units++;
      else this.inDoubt.set(room, { units: 1, waiting: [], recorded: true });
    }
    let heads: Awaited<ReturnType<OutcomeSettler['heads']>> | undefined;
    try {
      heads = await this.settler.heads(lost.backendPid, rooms);
    } catch {
      // The settler closed before it could answer, so the callers hear that the outcome could not be settled.
    }
    const { seq, fence, roomId } = unit[0].statement.position;
    const head = heads?.get(roomId);
    const moved = !!head && head.fence !== fence;
    const recorded = !!head && !moved && head.commitSeq > seq;
    this.meter.settled(heads === undefined ? 'unsettled' : moved ? 'elsewhere' : recorded ? 'recorded' : 'not_recorded');
    for (const w of unit) this.settled(w.statement.position.roomId);
    for (const w of unit) {
      if (recorded) w.resolve([]);
      else if (moved) w.reject(new RoomOutOfOrderError([w.statement.position.roomId]));
      else
        w.reject(
          this.failure.unavailable(w.statement.name, heads === undefined ? lost : new Error(`${lost.message}; it was not recorded`)),
        );
    }
    for (const room of rooms) this.release(lane, room, recorded);
  }

  /**
   * Called when one of the room's statements in doubt is settled. Once all of them are, what waited
   * behind them leaves now if every one was recorded. Otherwise it is refused, since it extends a
   * position the database never reached.
   */
  private release(lane: number, room: string, recorded: boolean): void {
    const doubt = this.inDoubt.get(room);
    if (!doubt) return;
    doubt.recorded &&= recorded;
    if (--doubt.units > 0) return;
    this.inDoubt.delete(room);
    const { waiting } = doubt;
    if (!doubt.recorded) {
      for (const w of waiting) {
        this.settled(room);
        w.reject(this.failure.unavailable(w.statement.name, new Error('a statement before it was not recorded')));
      }
      return;
    }
    if (waiting.length === 0) return;
    this.waiting[lane].push(...waiting);
    if (this.scheduled[lane]) return;
    this.scheduled[lane] = true;
    setImmediate(() => this.flush(lane));
  }

  /** What a failed unit means to each of its rooms. */
  private describe(err: unknown, statement: OrderedStatement): unknown {
    const code = (err as { code?: string }).code;
    if (code === OUT_OF_ORDER) {
      const rooms = String((err as { detail?: string }).detail ?? '')
        .split(',')
        .filter(Boolean);
      if (rooms.includes(statement.position.roomId)) return new RoomOutOfOrderError([statement.position.roomId]);
      // Another room in the shared statement was out of order, so this room's statement simply did not run.
      return this.failure.unavailable(statement.name, new Error('a room that shared the statement was out of order'));
    }
    if (err instanceof LaneBroken || this.failure.isConnectionError(err)) return this.failure.unavailable(statement.name, err);
    return err;
  }
}

/**
 * Groups the statements sent in one turn into units, in order. A statement joins an earlier unit
 * of the same name (taking that unit's place in the order) only if no other statement of its room
 * came in between, and its room is not in that unit yet. That way every room's statements keep
 * their order.
 */
export function mergeInOrder<W extends { readonly statement: Pick<OrderedStatement, 'name' | 'position' | 'merge'> }>(
  waiting: readonly W[],
): W[][] {
  const units: W[][] = [];
  const open = new Map<string, { unit: W[]; closedTo: Set<string> }>();
  for (const w of waiting) {
    const room = w.statement.position.roomId;
    const group = w.statement.merge ? open.get(w.statement.name) : undefined;
    for (const g of open.values()) if (g !== group) g.closedTo.add(room);
    if (group && !group.closedTo.has(room)) {
      group.unit.push(w);
      group.closedTo.add(room);
      continue;
    }
    const unit = [w];
    units.push(unit);
    if (group) group.closedTo.add(room);
    if (w.statement.merge) open.set(w.statement.name, { unit, closedTo: new Set([room]) });
  }
  return units;
}
