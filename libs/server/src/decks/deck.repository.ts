import { randomUUID } from 'node:crypto';
import { Database, PruneBatch } from '@app/persistence';
import type { StoredQuestion } from '@app/protocol';

/** The tables the pruning of hosts' unused decks removes rows from. */
export type HostDeckTable = 'decks' | 'questions';

export interface DeckSummary {
  readonly id: string;
  readonly name: string;
  readonly builtin: boolean;
  readonly questions: number;
}

/**
 * A question as the deck API's schema leaves it (section 13). It has only the fields its kind takes,
 * and a `choice` question has no `kind` field.
 */
export type NewQuestion = Readonly<StoredQuestion>;

// Builds one question row as the deck's JSON holds it. A field the question does not have is left
// out, so a `choice` question reads as every question did before kinds existed.
const QUESTION_JSON = `jsonb_strip_nulls(jsonb_build_object(
    'kind', nullif(q.kind, 'choice'), 'text', q.text, 'choices', q.choices, 'correct', coalesce(to_jsonb(q.correct), q.right_choices),
    'accepted', q.accepted, 'seconds', q.seconds, 'image', q.image))`;

/** A deck as a room plays it: its questions in the deck's order, with the right answers included. */
export interface LoadedDeck {
  readonly id: string;
  readonly name: string;
  /** A built-in deck changes only through a migration, never through the API. */
  readonly builtin: boolean;
  readonly questions: NewQuestion[];
}

/** A deck with what it takes to decide who may edit it. */
export interface StoredDeck extends LoadedDeck {
  readonly builtin: boolean;
  /** The SHA-256 of the edit token. It is null when nobody may edit the deck (it is built in, or made before tokens). */
  readonly editTokenHash: Buffer | null;
}

// Reads the deck's questions in order, as one JSON array. A deleted deck is treated as no deck.
const SELECT_DECK = `
  SELECT d.id, d.name, d.builtin, d.edit_token_hash,
         coalesce((SELECT jsonb_agg(${QUESTION_JSON} ORDER BY q.position)
                   FROM questions q WHERE q.deck_id = d.id), '[]') AS questions
  FROM decks d WHERE d.id = $1 AND d.deleted_at IS NULL`;

export class DeckRepository {
  constructor(private readonly db: Database) {}

  /**
   * Returns a page of the decks a caller may list: the built-in ones, then those whose edit tokens'
   * hashes the caller presents, each group oldest first. `after` is the last deck of the page before.
   * Each deck is found through an index (`decks_builtin`, `decks_by_edit_token`), and its questions
   * are counted through `questions (deck_id, position)`. So the cost depends on the page size, not on
   * how many decks hosts have made.
   */
  async listDecks(tokenHashes: readonly Buffer[], limit: number, after?: string): Promise<DeckSummary[]> {
    return this.db.run<DeckSummary>(
      'DeckRepository.listDecks',
      `WITH listed AS (
         SELECT d.id, d.name, d.builtin, d.created_at FROM decks d WHERE d.builtin AND d.deleted_at IS NULL
         UNION ALL
         SELECT d.id, d.name, d.builtin, d.created_at FROM decks d
         WHERE d.edit_token_hash = ANY($1::bytea[]) AND d.edit_token_hash IS NOT NULL AND d.deleted_at IS NULL
       ), page_start AS (SELECT NOT c.builtin AS hosts, c.created_at, c.id FROM decks c WHERE c.id = $3::uuid)
       SELECT l.id, l.name, l.builtin, (SELECT count(*) FROM questions q WHERE q.deck_id = l.id)::int AS questions
       FROM listed l
       WHERE $3::uuid IS NULL OR (NOT l.builtin, l.created_at, l.id) > (SELECT hosts, created_at, id FROM page_start)
       ORDER BY NOT l.builtin, l.created_at, l.id
       LIMIT $2`,
      [tokenHashes, limit, after ?? null],
    );
  }

  /** Creates a deck and all its questions in one statement. Later edits must match `editTokenHash`. */
  async createDeck(name: string, questions: readonly NewQuestion[], editTokenHash: Buffer | null = null): Promise<DeckSummary> {
    // The id is made here, so that a creation whose answer was lost can be looked up.
    const id = randomUUID();
    const [row] = await this.db.run<{ id: string }>(
      'DeckRepository.createDeck',
      `WITH deck AS (INSERT INTO decks (id, name, edit_token_hash) VALUES ($4, $1, $3) RETURNING id),
       added AS (
         INSERT INTO questions (deck_id, position, kind, text, choices, correct, right_choices, accepted, seconds, image)
         SELECT deck.id, q.ord - 1, coalesce(q.item->>'kind', 'choice'), q.item->>'text', q.item->'choices',
                CASE WHEN jsonb_typeof(q.item->'correct') = 'number' THEN (q.item->>'correct')::smallint END,
                CASE WHEN jsonb_typeof(q.item->'correct') = 'array' THEN q.item->'correct' END,
                q.item->'accepted', (q.item->>'seconds')::smallint, q.item->>'image'
         FROM deck, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS q(item, ord)
       )
       SELECT id FROM deck`,
      [name, JSON.stringify(questions), editTokenHash, id],
      undefined,
      { sql: 'SELECT id FROM decks WHERE id = $1', params: [id] },
    );
    return { id: row.id, name, builtin: false, questions: questions.length };
  }

  /** Loads the deck a room opens with, its questions in order. It returns null when no deck, or only a deleted one, has this id. */
  async loadDeck(id: string): Promise<LoadedDeck | null> {
    const [row] = await this.db.run<{ id: string; name: string; builtin: boolean; questions: NewQuestion[] }>(
      'DeckRepository.loadDeck',
      SELECT_DECK,
      [id],
    );
    return row ? { id: row.id, name: row.name, builtin: row.builtin, questions: row.questions } : null;
  }

  /**
   * Loads a deck as `loadDeck` does, and also whether and with which token it may be edited. The deck
   * API uses it for its reads and checks.
   */
  async findDeck(id: string): Promise<StoredDeck | null> {
    const [row] = await this.db.run<{
      id: string;
      name: string;
      builtin: boolean;
      edit_token_hash: Buffer | null;
      questions: NewQuestion[];
    }>('DeckRepository.findDeck', SELECT_DECK, [id]);
    return row ? { id: row.id, name: row.name, builtin: row.builtin, editTokenHash: row.edit_token_hash, questions: row.questions } : null;
  }

  /**
   * Replaces an editable deck's name and questions in one statement. It returns false when the deck
   * is gone or is not editable. Questions are rewritten in place by position, so the rows a live game
   * drew keep their ids, and positions past the new end are removed. Concurrent edits of one deck are
   * applied one after the other, and the last one wins whole. Migration 1764889260000 says why
   * `replace_deck` is a database function.
   */
  async replaceDeck(id: string, name: string, questions: readonly NewQuestion[]): Promise<boolean> {
    const rows = await this.db.run<{ id: string | null }>(
      'DeckRepository.replaceDeck',
      `SELECT replace_deck($1::uuid, $2, $3::jsonb) AS id`,
      [id, name, JSON.stringify(questions)],
      undefined,
      // If the answer is lost, the edit counts as recorded when the deck holds exactly this name and
      // these questions.
      {
        sql: `SELECT d.id FROM decks d
              WHERE d.id = $1 AND d.deleted_at IS NULL AND d.name = $2
                AND (SELECT coalesce(jsonb_agg(${QUESTION_JSON} ORDER BY q.position), '[]')
                     FROM questions q WHERE q.deck_id = d.id) = $3::jsonb`,
        params: [id, name, JSON.stringify(questions)],
      },
    );
    return Boolean(rows[0]?.id);
  }

  /**
   * Removes hosts' decks, with their questions, that no room names and nobody edited or deleted
   * within the window, the least recently edited first. One statement on the upkeep's own connection
   * removes at most `limit` rows, decks and questions together, but always at least one deck,
   * whatever its size. A deck that a room names, live or kept, is never removed (its row could not be
   * removed anyway, because `rooms.deck_id` references it). A deck being edited is skipped (`SKIP
   * LOCKED`), so an edit never waits for the pruning.
   */
  async pruneUnusedDecks(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch<HostDeckTable>> {
    const [row] = await this.db.runForUpkeep<{ candidates: number; decks: number; questions: number }>(
      'DeckRepository.pruneUnusedDecks',
      `WITH candidates AS (
         SELECT d.id, d.updated_at, (SELECT count(*) FROM questions q WHERE q.deck_id = d.id) AS questions
         FROM decks d
         WHERE NOT d.builtin AND d.updated_at < now() - make_interval(secs => $1::float8)
           -- Spelled as rooms_by_host_deck's predicate, so that each deck costs one probe of it.
           AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.deck_id = d.id AND r.deck_id IS NOT NULL AND r.deck_hash IS NULL)
         ORDER BY d.updated_at, d.id LIMIT $2
         FOR UPDATE OF d SKIP LOCKED
       ), due AS (
         -- As many of them as fit in the batch with their questions, and always the first.
         SELECT id, questions FROM (
           SELECT id, questions, sum(questions + 1) OVER (ORDER BY updated_at, id) AS rows_so_far,
                  row_number() OVER (ORDER BY updated_at, id) AS n
           FROM candidates
         ) c WHERE rows_so_far <= $2 OR n = 1
       ), gone AS (
         DELETE FROM decks d USING due WHERE d.id = due.id RETURNING 1
       )
       SELECT (SELECT count(*) FROM candidates)::int AS candidates, (SELECT count(*) FROM gone)::int AS decks,
              (SELECT coalesce(sum(questions), 0) FROM due)::int AS questions`,
      [windowSeconds, limit],
      timeoutMs,
    );
    // Candidates that are left over did not fit in this batch, and the next batch takes them.
    const taken = row.decks < row.candidates ? limit : row.candidates;
    return { taken, removed: { decks: row.decks, questions: row.questions } };
  }

  /**
   * Deletes an editable deck. Its questions are removed, and its row stays, marked deleted, because
   * rooms reference it. A deleted deck is no longer listed, read or played. It returns false when the
   * deck was gone already or is not editable.
   */
  async deleteDeck(id: string): Promise<boolean> {
    const rows = await this.db.run<{ id: string | null }>(
      'DeckRepository.deleteDeck',
      // A database function is used, as for replaceDeck, so that an edit the deletion waited for leaves
      // no question behind.
      `SELECT delete_deck($1::uuid) AS id`,
      [id],
      undefined,
      // If the answer is lost, the deletion counts as recorded when the deck is marked deleted.
      { sql: 'SELECT id FROM decks WHERE id = $1 AND deleted_at IS NOT NULL', params: [id] },
    );
    return Boolean(rows[0]?.id);
  }
}
