import { Database } from '../database';

export interface DeckSummary {
  readonly id: string;
  readonly name: string;
  readonly builtin: boolean;
  readonly questions: number;
}

export interface NewQuestion {
  readonly text: string;
  readonly choices: readonly string[];
  readonly correct: number;
}

export class DeckRepository {
  constructor(private readonly db: Database) {}

  async listDecks(): Promise<DeckSummary[]> {
    return this.db.run<DeckSummary>(
      'DeckRepository.listDecks',
      `SELECT d.id, d.name, d.builtin, count(q.id)::int AS questions
       FROM decks d LEFT JOIN questions q ON q.deck_id = d.id
       GROUP BY d.id ORDER BY d.builtin DESC, d.created_at, d.id`,
    );
  }

  /** A deck with its questions in order, or null when no deck has this id. */
  async loadDeck(id: string, timeoutMs?: number): Promise<{ id: string; name: string; questions: NewQuestion[] } | null> {
    const [row] = await this.db.run<{ id: string; name: string; questions: NewQuestion[] }>(
      'DeckRepository.loadDeck',
      `SELECT d.id, d.name, coalesce((SELECT json_agg(json_build_object('text', q.text, 'choices', q.choices, 'correct', q.correct) ORDER BY q.position)
                                      FROM questions q WHERE q.deck_id = d.id), '[]') AS questions
       FROM decks d WHERE d.id = $1::uuid`,
      [id],
      timeoutMs,
    );
    return row ?? null;
  }

  /** A deck and all its questions, in one statement. */
  async createDeck(name: string, questions: readonly NewQuestion[]): Promise<DeckSummary> {
    const [row] = await this.db.run<{ id: string }>(
      'DeckRepository.createDeck',
      `WITH deck AS (INSERT INTO decks (name) VALUES ($1) RETURNING id),
       added AS (
         INSERT INTO questions (deck_id, position, text, choices, correct)
         SELECT deck.id, q.ord - 1, q.item->>'text', q.item->'choices', (q.item->>'correct')::smallint
         FROM deck, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS q(item, ord)
       )
       SELECT id FROM deck`,
      [name, JSON.stringify(questions)],
    );
    return { id: row.id, name, builtin: false, questions: questions.length };
  }
}
