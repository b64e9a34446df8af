import { Client } from 'pg';

/**
 * Takes PostgreSQL's own account of a window (`--pg-statements`). The bench's PostgreSQL is started
 * with pg_stat_statements. The counters are reset when a window opens and read when it closes, and
 * the report lists where PostgreSQL's time went, statement by statement, with the pages each one
 * touched. This is what found a guard that scanned every room's row and a plan that scanned every
 * open room. Such costs grow with the number of rooms, and no client-side figure shows them.
 */
export const PG_STATEMENTS_FLAGS = ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'];

export interface StatementCost {
  readonly query: string;
  readonly calls: number;
  readonly totalMs: number;
  readonly rows: number;
  /** Shared buffers hit or read per call, which are the pages the statement touched. */
  readonly pagesPerCall: number;
}

const TOP = 12;

async function withClient<T>(url: string, f: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function installPgStatements(url: string): Promise<void> {
  return withClient(url, async (c) => void (await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')));
}

export function resetPgStatements(url: string): Promise<void> {
  return withClient(url, async (c) => void (await c.query('SELECT pg_stat_statements_reset()')));
}

/** The statements that took most of PostgreSQL's execution time since the last reset. */
export function readPgStatements(url: string): Promise<StatementCost[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls::float8 AS calls, total_exec_time AS total_ms,
              rows::float8 AS rows, (shared_blks_hit + shared_blks_read)::float8 / greatest(calls, 1) AS pages
       FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
       ORDER BY total_exec_time DESC LIMIT ${TOP}`,
    );
    return rows.map((r) => ({ query: r.query, calls: r.calls, totalMs: r.total_ms, rows: r.rows, pagesPerCall: r.pages }));
  });
}

/** Writes the report's table for one window. */
export function pgStatementsTable(costs: readonly StatementCost[], windowSeconds: number): string[] {
  const fmt = (n: number, d: number) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = [
    '| statement (first 110 characters) | calls | calls/s | total ms | ms per call | pages per call | share of a core |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const c of costs) {
    const text = c.query.slice(0, 110).replace(/\|/g, '\\|');
    lines.push(
      `| \`${text}\` | ${fmt(c.calls, 0)} | ${fmt(c.calls / windowSeconds, 0)} | ${fmt(c.totalMs, 0)} | ${fmt(c.totalMs / Math.max(c.calls, 1), 3)} | ${fmt(c.pagesPerCall, 1)} | ${fmt(c.totalMs / 10 / windowSeconds, 1)}% |`,
    );
  }
  return lines;
}
