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
  /** A question's own time, in seconds (section 13). */
  minSeconds: 5,
  maxSeconds: 240,
  /** A text question's accepted answers: how many, and how long each. */
  maxAccepted: 10,
  accepted: 40,
} as const;

/** The kinds of question (docs/protocol.md section 13); a question without one is a `choice`. */
export const QUESTION_KINDS = ['choice', 'truefalse', 'multi', 'poll', 'text'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** The choices of a `truefalse` question: `correct` 0 is true, 1 is false. */
export const TRUE_FALSE_CHOICES = ['True', 'False'] as const;

const L = DECK_LIMITS;
const choicesAccept = `must be an array of ${L.minChoices} to ${L.maxChoices} choices`;
const questionsAccept = `must be an array of ${L.minQuestions} to ${L.maxQuestions} questions`;
const acceptedAccept = `must be an array of 1 to ${L.maxAccepted} answers`;
const picksAccept = `must be an array of the right choices' indices (0-based), 1 or more, all different`;

export const DeckName = printableField(L.name);

/** An image's id, as `POST /api/decks/{id}/images` gave it. */
export const ImageIdField = z
  .string({ error: 'must be an image id' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an image id, as POST /api/decks/{id}/images gave it');

/** Which fields each kind takes besides `text`, `seconds` and `image`; any other is refused, so that a mistake is named rather than dropped. */
const FIELDS_OF: Record<QuestionKind, readonly ('choices' | 'correct' | 'accepted')[]> = {
  choice: ['choices', 'correct'],
  truefalse: ['choices', 'correct'],
  multi: ['choices', 'correct'],
  poll: ['choices'],
  text: ['accepted'],
};

/**
 * One question of a deck. `kind` (default `choice`) says which other fields it takes: `choices`
 * and `correct` (an index; for `multi` a list of indices), `choices` alone (`poll`), `correct`
 * alone (`truefalse`: 0 true, 1 false), or `accepted` (`text`). The output is the question as
 * the deck stores it: a `choice` question without its kind, a `truefalse` one with its choices.
 */
export const DeckQuestion = z
  .object(
    {
      kind: z
        .enum(QUESTION_KINDS, { error: `must be one of ${QUESTION_KINDS.join(', ')}` })
        .optional()
        .meta({ description: 'default: choice' }),
      text: printableField(L.text),
      choices: z
        .array(printableField(L.choice), { error: choicesAccept })
        .min(L.minChoices, choicesAccept)
        .max(L.maxChoices, choicesAccept)
        .refine((c) => new Set(c).size === c.length, 'must all differ')
        .optional()
        .meta({ description: 'all different; choice, multi and poll (a truefalse question’s are True and False)' }),
      // The index is 0-based here, while the CSV's column is 1-based, as a spreadsheet counts.
      correct: z
        .union([wholeField(0, L.maxChoices - 1), z.array(wholeField(0, L.maxChoices - 1), { error: picksAccept }).min(1, picksAccept)], {
          error: 'must be the index of the right choice (0-based), or for a multi question a list of them',
        })
        .optional()
        .meta({ description: 'the index of the right choice (0-based); for multi, the list of right indices; none for poll and text' }),
      accepted: z
        .array(
          // The CSV keeps a question's accepted answers in one cell, separated by |.
          printableField(L.accepted).refine((answer) => !answer.includes('|'), `must be 1 to ${L.accepted} printable characters without |`),
          { error: acceptedAccept },
        )
        .min(1, acceptedAccept)
        .max(L.maxAccepted, acceptedAccept)
        .optional()
        .meta({ description: 'text: the answers counted as right (case, accents and extra spaces ignored)' }),
      seconds: wholeField(L.minSeconds, L.maxSeconds).optional().meta({ description: 'the question’s own time, instead of the room’s' }),
      image: ImageIdField.optional().meta({ description: 'a picture shown with the question: an id from POST /api/decks/{id}/images' }),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((q, ctx) => {
    const kind = q.kind ?? 'choice';
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    for (const field of ['choices', 'correct', 'accepted'] as const) {
      if (q[field] !== undefined && !FIELDS_OF[kind].includes(field)) issue(field, `a ${kind} question has no ${field}`);
    }
    if (kind === 'text') {
      if (q.accepted === undefined) issue('accepted', `${acceptedAccept} (a text question needs them)`);
      return;
    }
    if (kind === 'truefalse') {
      if (q.choices && q.choices.join('\n') !== TRUE_FALSE_CHOICES.join('\n'))
        issue('choices', `a truefalse question’s choices are ${TRUE_FALSE_CHOICES.join(' and ')}; leave them out`);
      if (q.correct !== 0 && q.correct !== 1) issue('correct', 'must be 0 (true) or 1 (false)');
      return;
    }
    if (q.choices === undefined) return issue('choices', choicesAccept);
    const last = q.choices.length - 1;
    if (kind === 'poll') return;
    if (kind === 'multi') {
      const picks = q.correct;
      if (!Array.isArray(picks) || new Set(picks).size !== picks.length || picks.some((c) => c > last))
        issue('correct', `must be a list of the right choices' indices, each from 0 to ${last}, all different`);
      return;
    }
    if (typeof q.correct !== 'number' || q.correct > last) issue('correct', `must be a whole number from 0 to ${last}`);
  })
  .transform((q) => storedQuestion(q));
export type DeckQuestion = z.input<typeof DeckQuestion>;
/** A question as the deck stores it and a room copies it. */
export type StoredQuestion = z.output<typeof DeckQuestion>;

/** A deck question's fields besides its kind, every one of them that some kind takes. */
interface QuestionFields {
  text: string;
  choices?: string[];
  correct?: number | number[];
  accepted?: string[];
  seconds?: number;
  image?: string;
}

/** The question with only the fields its kind takes: a `choice` question as questions were before kinds, a `truefalse` one with its choices. */
function storedQuestion(q: QuestionFields & { kind?: QuestionKind }): QuestionFields & { kind?: Exclude<QuestionKind, 'choice'> } {
  const own = { ...(q.seconds !== undefined ? { seconds: q.seconds } : {}), ...(q.image !== undefined ? { image: q.image } : {}) };
  switch (q.kind ?? 'choice') {
    case 'choice':
      return { text: q.text, choices: q.choices, correct: q.correct, ...own };
    case 'truefalse':
      return { kind: 'truefalse', text: q.text, choices: [...TRUE_FALSE_CHOICES], correct: q.correct, ...own };
    case 'multi':
      return { kind: 'multi', text: q.text, choices: q.choices, correct: [...(q.correct as number[])].sort((a, b) => a - b), ...own };
    case 'poll':
      return { kind: 'poll', text: q.text, choices: q.choices, ...own };
    case 'text':
      return { kind: 'text', text: q.text, accepted: q.accepted, ...own };
  }
}

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

/** `GET /api/decks/{id}`. It includes `correct` and `accepted` only with the deck's edit token. */
export const DeckDetails = DeckSummary.omit({ questions: true }).extend({
  editable: z.boolean(),
  questions: z.array(
    z.object({
      kind: z.enum(QUESTION_KINDS).optional().meta({ description: 'absent for a choice question' }),
      text: z.string(),
      choices: z.array(z.string()).optional().meta({ description: 'absent for a text question' }),
      correct: z
        .union([z.int(), z.array(z.int())])
        .optional()
        .meta({ description: 'only with the edit token; a list for a multi question; none for a poll' }),
      accepted: z.array(z.string()).optional().meta({ description: 'only with the edit token; a text question’s accepted answers' }),
      seconds: z.int().optional(),
      image: z.string().optional().meta({ description: 'the picture’s image id (served at /api/images/{imageId})' }),
    }),
  ),
});
export type DeckDetails = z.infer<typeof DeckDetails>;

/** `POST /api/decks/import`'s body: the CSV itself, as `text/csv` (or `text/plain`). */
export const DeckCsv = z.string().meta({ description: 'the CSV, as `text/csv` (or `text/plain`), UTF-8' });
export const DeckCsvTemplate = z.string().meta({ description: 'the header row and an example question of each kind' });
/** `GET /api/decks/{id}.csv`: the deck in the import's format (no pictures: a CSV cannot carry them). */
export const DeckCsvExport = z.string().meta({ description: 'the deck as CSV, in the format POST /api/decks/import reads' });
