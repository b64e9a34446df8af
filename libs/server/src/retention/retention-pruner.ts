import { PruneBatch, RetentionRepository, RetentionTable } from '@app/persistence';
import type { HostDeckTable } from '../decks/deck.repository';

const DAY_SECONDS = 86_400;

export interface RetentionOptions {
  /**
   * A closed room's journal, snapshot and deck copy are removed this long after the room closed (the
   * results window).
   */
  readonly resultsKeptDays: number;
  /**
   * Finished games are removed this long after they finished, and then the rows of their pruned
   * rooms. 0 keeps them for ever.
   */
  readonly finishedGamesKeptDays: number;
  /** Hosts' decks that no room names are removed this long after their last edit. 0 keeps them for ever. */
  readonly decksKeptDays: number;
  /** The most rows (or rooms) one statement removes. */
  readonly batchRows: number;
  /** How often a sweep starts. With 0, no sweep starts by itself, but `sweep()` still prunes. */
  readonly sweepMs: number;
  readonly timeoutMs?: number;
}

/**
 * Removes hosts' decks that no room names. The server's deck repository does this, because decks are
 * not the engine's.
 */
export interface UnusedDecks {
  pruneUnusedDecks(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch<HostDeckTable>>;
}

/** Every table the sweep removes rows from: the rooms' (the retention repository's) and the hosts' decks'. */
export type PrunedTable = RetentionTable | HostDeckTable;

export interface RetentionCounters {
  retentionPruned(table: PrunedTable, rows: number): void;
  retentionFailed(): void;
}

/** What one sweep removed, by table, and the statements it took of each kind. */
export interface SweepReport {
  readonly removed: Record<PrunedTable, number>;
  readonly statements: Record<Step, number>;
}

type Step = 'closedJournals' | 'closedRooms' | 'orphanedImages' | 'finishedGames' | 'roomRows' | 'unusedDecks';

// Sweeps stop after this many statements of one kind, so that a sweep ends even while something
// keeps coming due. What is left goes to the next sweep.
const MAX_BATCHES_PER_STEP = 10_000;
// The first sweep waits this long after start (or one interval, if that is shorter), because a start
// is busy enough already.
const FIRST_SWEEP_MS = 10_000;

/**
 * Removes what is past its retention, on a timer, off every command's path. Each sweep runs the
 * retention's statements in order: closed rooms' journals, then their snapshots and deck copies,
 * then the pictures taken out of their decks (or of deleted decks) that no open room shows any
 * more, then finished games, then the rows of rooms that nothing names any more, then hosts' decks
 * that no room names and nobody edited within their window. Each step runs in batches of at most
 * `batchRows`, one statement at a time on the upkeep's own connection, until a batch comes back
 * short. Between two batches the sweep rests as long as the last batch took, so pruning holds at
 * most half of that one connection. Every instance may run the pruner, because the statements skip
 * rows that another instance holds.
 */
export class RetentionPruner {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<SweepReport | undefined> | undefined;
  private stopped = false;

  constructor(
    private readonly repo: RetentionRepository,
    private readonly decks: UnusedDecks,
    private readonly options: RetentionOptions,
    private readonly counters: RetentionCounters,
    private readonly warn: (msg: string, fields?: Record<string, unknown>) => void,
  ) {}

  /** Starts the timer, when `sweepMs` asks for one. The first sweep comes shortly after. */
  start(): void {
    if (this.options.sweepMs > 0) this.schedule(Math.min(this.options.sweepMs, FIRST_SWEEP_MS));
  }

  /** Stops the timer and waits for a sweep in progress to end after its current statement. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /**
   * Runs one sweep now (or joins the one in progress) and returns what it removed. A statement that
   * fails ends the sweep, and the failure is counted and logged. The next sweep starts where this
   * one stopped, since nothing was removed twice.
   */
  sweep(): Promise<SweepReport | undefined> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep().finally(() => this.schedule(this.options.sweepMs));
    }, ms);
    this.timer.unref();
  }

  private async sweepOnce(): Promise<SweepReport | undefined> {
    const { resultsKeptDays, finishedGamesKeptDays, decksKeptDays, batchRows, timeoutMs } = this.options;
    const results = resultsKeptDays * DAY_SECONDS;
    const finished = finishedGamesKeptDays * DAY_SECONDS;
    const unusedDecks = decksKeptDays * DAY_SECONDS;
    const report: SweepReport = {
      removed: {
        room_journal: 0,
        room_snapshots: 0,
        room_decks: 0,
        finished_games: 0,
        rooms: 0,
        room_heads: 0,
        decks: 0,
        questions: 0,
        deck_images: 0,
      },
      statements: { closedJournals: 0, closedRooms: 0, orphanedImages: 0, finishedGames: 0, roomRows: 0, unusedDecks: 0 },
    };
    const steps: [Step, () => Promise<PruneBatch<PrunedTable>>][] = [
      ['closedJournals', () => this.repo.pruneClosedJournals(results, batchRows, timeoutMs)],
      ['closedRooms', () => this.repo.pruneClosedRooms(results, batchRows, timeoutMs)],
      // After the rooms: a picture taken out of its deck (or of a deleted deck) goes once no open room shows it.
      ['orphanedImages', () => this.repo.pruneOrphanedImages(batchRows, timeoutMs)],
      // When finished games are kept for ever, neither the games nor the rooms they name are removed.
      ...(finished > 0
        ? ([
            ['finishedGames', () => this.repo.pruneFinishedGames(finished, batchRows, timeoutMs)],
            ['roomRows', () => this.repo.pruneRoomRows(finished, batchRows, timeoutMs)],
          ] as [Step, () => Promise<PruneBatch<PrunedTable>>][])
        : []),
      // Unused decks come last, because the room rows removed just before may have been the last to
      // name a deck.
      ...(unusedDecks > 0
        ? ([['unusedDecks', () => this.decks.pruneUnusedDecks(unusedDecks, batchRows, timeoutMs)]] as [
            Step,
            () => Promise<PruneBatch<PrunedTable>>,
          ][])
        : []),
    ];
    try {
      for (const [step, batch] of steps) {
        for (let n = 0; n < MAX_BATCHES_PER_STEP && !this.stopped; n++) {
          const started = performance.now();
          const { removed, taken } = await batch();
          report.statements[step]++;
          for (const [table, rows] of Object.entries(removed) as [PrunedTable, number][]) {
            report.removed[table] += rows;
            this.counters.retentionPruned(table, rows);
          }
          if (taken < batchRows) break;
          await rest(performance.now() - started);
        }
      }
      return report;
    } catch (err) {
      this.counters.retentionFailed();
      this.warn('retention pruning stopped at a statement that failed; the next sweep goes on', { error: String(err) });
      return undefined;
    }
  }
}

function rest(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 1000)).unref());
}
