import { Client } from 'pg';
import { playTriviaRoom } from '@app/bot-kit';
import { Options, UsageError } from '../cli';
import { BenchRun, BotSettings, botSettings, log, roomBotOptions, seededRandom, TargetSettings } from '../run';

/** The tables a game leaves rows in, and what each row is for. */
const TABLES: readonly { readonly name: string; readonly per: 'room' | 'game' | 'input' }[] = [
  { name: 'rooms', per: 'room' },
  { name: 'room_heads', per: 'room' },
  { name: 'room_snapshots', per: 'room' },
  { name: 'room_journal', per: 'input' },
  { name: 'finished_games', per: 'game' },
  { name: 'refused_commands', per: 'room' },
];

interface Sizes {
  /** pg_total_relation_size (table, TOAST and indexes) in bytes, after VACUUM FULL. */
  readonly bytes: Record<string, number>;
  readonly rows: Record<string, number>;
  /** The bytes of the deck copies that rooms keep in `rooms.deck`. They are TOASTed, and part of the rooms figure. */
  readonly deckCopyBytes: number;
}

/** How long the rows may stay as they are before the wait for the pruning ends. */
const STILL_MS = 30_000;

interface StorageParams {
  readonly bots: BotSettings;
  readonly rooms: number;
  readonly concurrency: number;
  readonly gamesPerDay: number;
  readonly prune: boolean;
  readonly pruneTimeoutMs: number;
  readonly title: string;
}

/**
 * Measures what a game leaves in PostgreSQL, and what is left of it once its retention window has
 * passed. The bench starts a server on a fresh database and plays `--games` rooms of one game each
 * to their end, `--concurrency` at a time (the bots vote for a rematch and leave, and the host closes
 * the room). Then it measures every table: VACUUM FULL, then pg_total_relation_size, so that the
 * figure is what the rows take, not dead space. With `--prune` (the default), it then moves the
 * rooms' and games' own timestamps back 31 days, as a month passing would, waits for the server's
 * pruning to remove them, and measures again. The report projects the figures to a day, a month and
 * a year at `--games-per-day`. Run it against another build with `--server-cmd` to compare.
 */
export function storageMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  if (target.url) throw new UsageError('storage measures a database of its own: it starts the server itself (no --url)');
  const bots = botSettings(o, { seats: 8, questions: 10, secondsPerQuestion: 20, revealSeconds: 0, pingSeconds: 0 });
  const rooms = o.number('games', 200, 1, 100_000);
  const concurrency = o.number('concurrency', 20, 1, 1000);
  const gamesPerDay = o.number('games-per-day', 10_000, 1, 100_000_000);
  const prune = !o.flag('no-prune');
  const pruneTimeoutMs = o.number('prune-timeout-seconds', 600, 1, 86_400) * 1000;
  const title = o.string('title', `Storage: ${rooms} games of ${bots.seats} players and ${bots.questions} questions, one a room`);
  o.assertAllUsed();
  return (run, command) => runStorage(run, command, { bots, rooms, concurrency, gamesPerDay, prune, pruneTimeoutMs, title });
}

async function runStorage(run: BenchRun, command: string, p: StorageParams): Promise<void> {
  // The pruning sweeps every second, so that the wait after the month's move is short.
  await run.startServer(run.target.serverCommand, { RETENTION_SWEEP_SECONDS: '1', ...run.target.serverEnv });
  const db = new Client({ connectionString: run.db!.directUrl });
  await db.connect();
  try {
    const empty = await measure(db);
    const random = seededRandom(p.bots.seed);
    let next = 0;
    let played = 0;
    const errors: string[] = [];
    const worker = async () => {
      while (next < p.rooms && !run.signal.aborted) {
        const n = ++next;
        const room = await playTriviaRoom({ baseUrl: run.baseUrl, ...roomBotOptions(p.bots), random, signal: run.signal });
        if (room.error) errors.push(room.error);
        else played += room.games.length;
        if (n % 50 === 0) log(`${n} of ${p.rooms} rooms played`);
      }
    };
    await Promise.all(Array.from({ length: p.concurrency }, worker));
    if (errors.length) log(`${errors.length} room(s) failed, the first: ${errors[0]}`);
    // Every room is closed now, so what a month of play leaves is this, times the games.
    const full = await measure(db);
    let pruned: { sizes: Sizes; waitedMs: number } | undefined;
    if (p.prune && !run.signal.aborted) {
      log('moving every room and game 31 days back, and waiting for the pruning');
      await db.query(`UPDATE rooms SET closed_at = closed_at - interval '31 days' WHERE closed_at IS NOT NULL`);
      await db.query(`UPDATE finished_games SET finished_at = finished_at - interval '31 days'`);
      const started = performance.now();
      const rowsOf = async () =>
        Number(
          (
            await db.query(
              `SELECT ${TABLES.filter((t) => t.name !== 'refused_commands')
                .map((t) => `(SELECT count(*) FROM ${t.name})`)
                .join(' + ')} AS n`,
            )
          ).rows[0].n,
        );
      // Wait until every row is gone, or nothing was removed for a while (a build without retention
      // removes nothing).
      let left = await rowsOf();
      let changedAt = performance.now();
      while (
        left > 0 &&
        performance.now() - changedAt < STILL_MS &&
        performance.now() - started < p.pruneTimeoutMs &&
        !run.signal.aborted
      ) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = await rowsOf();
        if (now !== left) changedAt = performance.now();
        left = now;
      }
      pruned = { sizes: await measure(db), waitedMs: performance.now() - started };
      if (left > 0) log(`after ${Math.round(pruned.waitedMs / 1000)} s, ${left} rows of closed rooms and old games are still there`);
    }
    run.writeFile('report.md', report(run, command, p, { played, errors: errors.length, empty, full, pruned }));
    run.writeFile('sizes.json', JSON.stringify({ played, empty, full, pruned: pruned?.sizes ?? null }, null, 2) + '\n');
  } finally {
    await db.end();
  }
}

/** Compacts every table (VACUUM FULL), then reads its size with its TOAST and indexes, and its rows. */
async function measure(db: Client): Promise<Sizes> {
  const bytes: Record<string, number> = {};
  const rows: Record<string, number> = {};
  for (const t of TABLES) {
    await db.query(`VACUUM FULL ${t.name}`);
    const { rows: r } = await db.query<{ bytes: string; rows: string }>(
      `SELECT pg_total_relation_size($1::regclass) AS bytes, (SELECT count(*) FROM ${t.name}) AS rows`,
      [t.name],
    );
    bytes[t.name] = Number(r[0].bytes);
    rows[t.name] = Number(r[0].rows);
  }
  const deck = await db.query<{ bytes: string }>(`SELECT coalesce(sum(pg_column_size(deck)), 0) AS bytes FROM rooms`);
  return { bytes, rows, deckCopyBytes: Number(deck.rows[0].bytes) };
}

function report(
  run: BenchRun,
  command: string,
  p: StorageParams,
  r: { played: number; errors: number; empty: Sizes; full: Sizes; pruned?: { sizes: Sizes; waitedMs: number } },
): string {
  const games = Math.max(1, r.played);
  const perGame = (s: Sizes, table: string) => (s.bytes[table] - r.empty.bytes[table]) / games;
  const total = (s: Sizes) => TABLES.reduce((sum, t) => sum + s.bytes[t.name] - r.empty.bytes[t.name], 0);
  const kib = (n: number) => `${(n / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB`;
  const size = (n: number) =>
    n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : kib(n);
  const lines = [`# ${p.title}`, '', '```', command, '```', ''];
  lines.push(
    `Server: \`${run.server?.command.join(' ')}\` (its \`/health\` is in server.log). ${r.played} games played to their end in ${p.rooms} rooms (${r.errors} failed), ${p.concurrency} at a time: ${p.bots.seats} players and a host each, ${p.bots.questions} questions, every player answering each, then a rematch vote, the players leaving and the host closing the room.`,
    '',
    'Sizes are `pg_total_relation_size` (the table, its TOAST and its indexes) after `VACUUM FULL` of each table, less what the table held before the first game: what the rows take, not the dead space autovacuum would reuse.',
    '',
    '## What a game leaves',
    '',
    '| table | one row is a | rows after the games | bytes per game | rows once the window passed |',
    '|---|---|---:|---:|---:|',
  );
  for (const t of TABLES) {
    lines.push(
      `| \`${t.name}\` | ${t.per} | ${r.full.rows[t.name].toLocaleString('en-US')} | ${Math.round(perGame(r.full, t.name)).toLocaleString('en-US')} | ${r.pruned ? r.pruned.sizes.rows[t.name].toLocaleString('en-US') : '-'} |`,
    );
  }
  const perGameTotal = total(r.full) / games;
  lines.push(`| all | | | ${Math.round(perGameTotal).toLocaleString('en-US')} | |`, '');
  lines.push(`Deck copies in \`rooms.deck\`: ${kib(r.full.deckCopyBytes / games)} per room (inside the \`rooms\` figure).`, '');
  const day = perGameTotal * p.gamesPerDay;
  lines.push('## At ' + p.gamesPerDay.toLocaleString('en-US') + ' games a day', '');
  lines.push('| after | held |', '|---|---:|');
  lines.push(`| a day | ${size(day)} |`, `| a month (30 days) | ${size(day * 30)} |`);
  if (r.pruned) {
    const left = total(r.pruned.sizes);
    const removed = TABLES.every((t) => r.pruned!.sizes.rows[t.name] === 0);
    lines.push(
      removed
        ? `| a year | ${size(day * 30)} (what is older than its window is removed: the month's figure is the most it holds) |`
        : `| a year | ${size(day * 365)} (nothing is removed) |`,
    );
    lines.push(
      '',
      `Once the window passed (${Math.round(r.pruned.waitedMs / 1000)} s of pruning after the 31 days' move), the tables held ${size(left)} more than before the first game${removed ? ' (pages an empty table keeps)' : ''}.`,
    );
  }
  lines.push(
    '',
    `${Math.round((r.full.bytes.room_journal - r.empty.bytes.room_journal) / Math.max(1, r.full.rows.room_journal))} bytes per journal row on average.`,
    '',
  );
  return lines.join('\n') + '\n';
}
