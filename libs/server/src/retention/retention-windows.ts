import { ServerConfig } from '../config/server-config';

/**
 * How long a results link answers unless configured otherwise (PROTOCOL.md section 12), and how long
 * a closed room's journal is kept.
 */
export const DEFAULT_RESULTS_KEPT_DAYS = 30;
/** How long finished games are kept unless configured otherwise: as long as their results link answers. */
export const DEFAULT_FINISHED_GAMES_KEPT_DAYS = 30;
/**
 * How long a host's deck that no room names is kept after its last edit, unless configured
 * otherwise: as long as results.
 */
export const DEFAULT_DECKS_KEPT_DAYS = 30;
/** The most rows (or rooms) one pruning statement removes, unless configured otherwise. */
export const DEFAULT_RETENTION_BATCH_ROWS = 1000;

export const DAY_MS = 86_400_000;

/** The results window of this server, in days. */
export function resultsKeptDays(config: ServerConfig): number {
  return config.resultsKeptDays ?? DEFAULT_RESULTS_KEPT_DAYS;
}

/**
 * Returns when a finished game's results link stops answering, in whole ms: the time its record was
 * committed, plus the results window.
 */
export function resultsReadableUntil(finishedAt: number, config: ServerConfig): number {
  return Math.floor(finishedAt) + resultsKeptDays(config) * DAY_MS;
}

/** The finished games' retention of this server, in days; 0 keeps them for ever. */
export function finishedGamesKeptDays(config: ServerConfig): number {
  return config.finishedGamesKeptDays ?? DEFAULT_FINISHED_GAMES_KEPT_DAYS;
}

/** The unused decks' retention of this server, in days; 0 keeps them for ever. */
export function decksKeptDays(config: ServerConfig): number {
  return config.decksKeptDays ?? DEFAULT_DECKS_KEPT_DAYS;
}
