import { z } from 'zod';
import { DECK_PAGE_MAX } from './deck-list.js';
import { jsonObject, printableField, uuidField, wholeField, wholeNumberQuery } from './fields.js';

// The decks' HTTP shapes (docs/protocol.md section 12). The CSV import applies the same limits.

/** What a deck may hold, the same whether it arrives as JSON or CSV. */
export const DECK_LIMITS = {
  name: 64,
  minQuestions: 1,
  maxQuestions: 200,
  text: 300,
  minChoices: 2,
  maxChoices: 6,
  choice: 120,
} as const;

const L = DECK_LIMITS;
const choicesAccept = `must be an array of ${L.minChoices} to ${L.maxChoices} choices`;
const questionsAccept = `must be an array of ${L.minQuestions} to ${L.maxQuestions} questions`;

export const DeckName = printableField(L.name);

export const DeckQuestion = z
  .object(
    {
      text: printableField(L.text),
      choices: z
        .array(printableField(L.choice), { error: choicesAccept })
        .min(L.minChoices, choicesAccept)
        .max(L.maxChoices, choicesAccept)
        .refine((c) => new Set(c).size === c.length, 'must all differ')
        .meta({ description: 'all different' }),
      // The index is 0-based here, while the CSV's column is 1-based, as a spreadsheet counts.
      correct: wholeField(0, L.maxChoices - 1).meta({ description: 'the index of the right choice (0-based)' }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((q, ctx) => {
    if (q.correct >= q.choices.length) {
      ctx.addIssue({ code: 'custom', path: ['correct'], message: `must be a whole number from 0 to ${q.choices.length - 1}` });
    }
  });
export type DeckQuestion = z.input<typeof DeckQuestion>;

/** `POST /api/decks` and `PUT /api/decks/{id}`. */
export const DeckBody = jsonObject({
  name: DeckName,
  questions: z.array(DeckQuestion, { error: questionsAccept }).min(L.minQuestions, questionsAccept).max(L.maxQuestions, questionsAccept),
});
export type DeckBody = z.input<typeof DeckBody>;

/** `POST /api/decks/import?name=`. */
export const DeckImportQuery = z.object({ name: DeckName.meta({ description: 'the deck’s name' }) });

export const DeckIdParams = z.object({
  id: z.string().meta({ description: 'the deck id (a UUID)', example: '00000000-0000-4000-8000-000000000001' }),
});

export const DeckSummary = z.object({ id: z.guid(), name: z.string(), builtin: z.boolean(), questions: z.int() });
export type DeckSummary = z.infer<typeof DeckSummary>;

/**
 * `GET /api/decks?limit=&cursor=`: the built-in decks, then the decks whose edit tokens come as
 * `Authorization: Bearer t1, t2, ...`.
 */
export const DeckListQuery = z.object({
  limit: wholeNumberQuery(1, DECK_PAGE_MAX).optional().default(50),
  cursor: uuidField().optional().meta({ description: 'the `next` of the page before; absent for the first page' }),
});

export const DeckList = z.object({
  decks: z.array(DeckSummary),
  next: z.guid().nullable().meta({ description: 'the cursor of the next page (its `cursor`); null on the last page' }),
});
export type DeckList = z.infer<typeof DeckList>;

/** A new deck. The edit token is shown this once only. */
export const CreatedDeck = DeckSummary.extend({
  editToken: z.string().meta({
    description: 'the right to change or delete this deck, as `Authorization: Bearer`; shown only now, kept by the server only as a hash',
  }),
});
export type CreatedDeck = z.infer<typeof CreatedDeck>;

/** `GET /api/decks/{id}`. It includes `correct` only with the deck's edit token. */
export const DeckDetails = DeckSummary.omit({ questions: true }).extend({
  editable: z.boolean(),
  questions: z.array(
    z.object({
      text: z.string(),
      choices: z.array(z.string()),
      correct: z.int().optional().meta({ description: 'only with the edit token' }),
    }),
  ),
});
export type DeckDetails = z.infer<typeof DeckDetails>;

/** `POST /api/decks/import`'s body: the CSV itself, as `text/csv` (or `text/plain`). */
export const DeckCsv = z.string().meta({ description: 'the CSV, as `text/csv` (or `text/plain`), UTF-8' });
export const DeckCsvTemplate = z.string().meta({ description: 'the header row and three example questions' });
