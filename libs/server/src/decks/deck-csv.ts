import { printableText, QUESTION_KINDS, QuestionKind, TRUE_FALSE_CHOICES } from '@app/protocol';
import { CsvError, parse } from 'csv-parse/sync';
import { NewQuestion } from './deck.repository';
import { BadCsvException } from './deck.errors';
import { DECK_LIMITS as L } from './deck-limits';

// This file reads and writes a deck as a spreadsheet exports it (PROTOCOL.md sections 12 and 13).
// The file has a header row, then one question per row: `question,choice1,...,choice6,correct`.
// `correct` is the 1-based number of the right choice. After it come `kind`, `seconds` and
// `accepted`, in any order, when the header names them. A file without those columns reads as files
// did before kinds existed: every question is a `choice` question.
// Quoting follows RFC 4180: a cell with a comma, a quote or a line break is in double quotes, and a
// quote inside it is doubled. Line ends may be CRLF, LF or CR, and a UTF-8 BOM is dropped. A
// semicolon is the separator when the header row has semicolons and no comma, because spreadsheets
// in locales whose decimal mark is a comma export that way. Blank rows and rows of empty cells are
// skipped.

export const DECK_CSV_HEADER = ['question', 'choice1', 'choice2', 'choice3', 'choice4', 'choice5', 'choice6', 'correct'] as const;

/** The columns a file may add after `correct`, by name (section 13). */
const KIND_COLUMNS = ['kind', 'seconds', 'accepted'] as const;
type KindColumn = (typeof KIND_COLUMNS)[number];

/** The columns of the template and of an exported deck: first section 12's columns, then the kinds' columns. */
export const DECK_CSV_COLUMNS = [...DECK_CSV_HEADER, ...KIND_COLUMNS] as const;

/** The separator between a multi question's right choices, and between a text question's accepted answers, in one cell. */
const LIST_SEPARATOR = '|';

/**
 * What `GET /api/decks/template.csv` serves: the header and one row of each kind. The rows also show
 * the quoting (a comma and a quote inside a cell), a question's own seconds, and the lists.
 */
export const DECK_CSV_TEMPLATE =
  [
    DECK_CSV_COLUMNS.join(','),
    'Which planet is known as the red planet?,Venus,Mars,Jupiter,Saturn,,,2,choice,,',
    '"Which of these is a fruit, botanically?",Carrot,Tomato,,,,,2,,30,',
    '"Who wrote ""Hamlet""?",Charles Dickens,William Shakespeare,Jane Austen,,,,2,choice,,',
    'The Sun is a star.,,,,,,,true,truefalse,,',
    'Which of these are prime numbers?,2,3,4,9,,,1|2,multi,,',
    'Which season do you like best?,Spring,Summer,Autumn,Winter,,,,poll,,',
    'What is the capital of France?,,,,,,,,text,20,Paris|Paris city',
  ].join('\r\n') + '\r\n';

const QUOTE_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed: a double quote (") opens it and none ends it',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted cell goes on after its closing quote; inside quotes, write a double quote as two ("")',
  INVALID_OPENING_QUOTE:
    'a double quote (") inside a cell that does not start with one: put the whole cell in quotes and write the quote as two ("")',
};

interface Row {
  readonly cells: readonly string[];
  /** The line of the file on which the row starts (1 is the header). */
  readonly line: number;
}

/**
 * Where a file's columns are. `correct` is column number `columns` (1-based), and `named` gives the
 * place (0-based) of each kind column the header names.
 */
interface Layout {
  readonly columns: number;
  readonly named: Readonly<Partial<Record<KindColumn, number>>>;
  /** How many columns the header names in all. */
  readonly width: number;
}

/** Reads the questions of a deck's CSV. A bad file throws a BadCsvException that names the first bad cell. */
export function readDeckCsv(csv: string): NewQuestion[] {
  const [header, ...rows] = readRows(csv);
  if (!header)
    throw new BadCsvException(1, 1, `the file is empty: it needs a header row (${DECK_CSV_HEADER.join(',')}) and a row per question`);
  const layout = readHeader(header.cells);
  if (rows.length === 0) throw new BadCsvException(2, 1, 'no questions: after the header row, write one question a row');
  if (rows.length > L.maxQuestions) {
    throw new BadCsvException(
      rows[L.maxQuestions].line,
      1,
      `a deck holds at most ${L.maxQuestions} questions; this is question ${L.maxQuestions + 1}`,
    );
  }
  return rows.map((row) => readQuestion(row, layout));
}

function readRows(csv: string): Row[] {
  // Give the parser one kind of line end, so that its line count matches the file's. The parser
  // would count a CRLF inside quotes twice. A line break inside a cell becomes a space later anyway.
  const text = csv.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  let lastLine = 0;
  try {
    const records = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      info: true,
      on_record: (record, context) => {
        lastLine = context.lines;
        return record;
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => ({
      cells: record,
      line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
    }));
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const at = err as CsvError & { lines?: number; column?: number };
    // The parser finds an unclosed quote only at the end of the file, but the row to name is the one
    // in which the quote opened.
    const line = err.code === 'CSV_QUOTE_NOT_CLOSED' ? nextRowLine(text, lastLine) : (at.lines ?? lastLine + 1);
    throw new BadCsvException(line, (at.column ?? 0) + 1, QUOTE_ERRORS[err.code] ?? err.message);
  }
}

/** Finds where the next row starts: the first line after `after` that is neither blank nor only separators. */
function nextRowLine(text: string, after: number): number {
  const lines = text.split('\n');
  let i = after;
  while (i < lines.length - 1 && /^[\s,;]*$/.test(lines[i])) i++;
  return i + 1;
}

/**
 * Reads the header to find where the rows' columns are. They are the question, the choices and
 * `correct`, then the kind columns the header names. Those are found by name, in any order, after
 * `correct`.
 */
function readHeader(cells: readonly string[]): Layout {
  let width = cells.length;
  while (width > 0 && cells[width - 1].trim() === '') width--;
  const named: Partial<Record<KindColumn, number>> = {};
  let n = width;
  for (let name = kindColumn(cells[n - 1]); name && named[name] === undefined; name = kindColumn(cells[n - 1])) named[name] = --n;
  const expected = `the header row names the columns: ${DECK_CSV_HEADER.join(',')} (2 to 6 choices), then kind, seconds and accepted if the file has them`;
  for (let i = 0; i < n; i++) {
    const name = kindColumn(cells[i]);
    if (name) throw new BadCsvException(1, i + 1, `the ${name} column goes after correct, once: ${expected}`);
  }
  if (/^\s*\d+\s*$/.test(cells[n - 1] ?? ''))
    throw new BadCsvException(1, n, `line 1 must be the header row; this one looks like a question (${expected})`);
  if (n < 2 + L.minChoices) throw new BadCsvException(1, n + 1, `too few columns: ${expected}`);
  if (n > 2 + L.maxChoices) throw new BadCsvException(1, 2 + L.maxChoices + 1, `too many columns: ${expected}`);
  return { columns: n, named, width };
}

/** The kind column a header cell names, if it names one. */
function kindColumn(cell: string | undefined): KindColumn | undefined {
  const name = (cell ?? '').trim().toLowerCase();
  return (KIND_COLUMNS as readonly string[]).includes(name) ? (name as KindColumn) : undefined;
}

function readQuestion({ cells, line }: Row, layout: Layout): NewQuestion {
  const { columns, named, width } = layout;
  const cell = (i: number) => (cells[i] ?? '').replace(/\s+/g, ' ').trim();
  const last = width === columns ? 'correct' : (Object.entries(named).find(([, at]) => at === width - 1)?.[0] ?? 'correct');
  for (let i = width; i < cells.length; i++) {
    if (cell(i) !== '') throw new BadCsvException(line, i + 1, `this cell is past the last column (${width}, ${last}) the header names`);
  }
  const bad: Refuse = (column, message) => {
    throw new BadCsvException(line, column, message);
  };
  const kindCell = named.kind === undefined ? '' : cell(named.kind).toLowerCase();
  if (kindCell !== '' && !(QUESTION_KINDS as readonly string[]).includes(kindCell))
    bad(named.kind! + 1, `kind must be one of ${QUESTION_KINDS.join(', ')} (empty is choice), not "${kindCell.slice(0, 20)}"`);
  const kind = (kindCell || 'choice') as QuestionKind;
  const text = printableText(cell(0), L.text);
  if (text === undefined)
    throw new BadCsvException(
      line,
      1,
      cell(0) === '' ? 'the question is empty' : `the question must be 1 to ${L.text} printable characters`,
    );

  const given = Array.from({ length: columns - 2 }, (_, i) => cell(1 + i));
  let count = given.length;
  while (count > 0 && given[count - 1] === '') count--;
  const choices: string[] = [];
  for (let i = 0; i < count; i++) {
    const column = 2 + i;
    if (given[i] === '')
      throw new BadCsvException(line, column, `choice${i + 1} is empty but a later choice is not: write the choices without gaps`);
    const choice = printableText(given[i], L.choice);
    if (choice === undefined) throw new BadCsvException(line, column, `choice${i + 1} must be 1 to ${L.choice} printable characters`);
    const same = choices.indexOf(choice);
    if (same !== -1)
      throw new BadCsvException(line, column, `choice${i + 1} is the same as choice${same + 1}: the choices must all differ`);
    choices.push(choice);
  }
  if (kind === 'text' && count > 0)
    bad(2, 'a text question has no choices: leave choice1 to choice6 empty and write its answers in accepted');
  const trueFalse = count === 2 && choices.every((c, i) => c.toLowerCase() === TRUE_FALSE_CHOICES[i].toLowerCase());
  if (kind === 'truefalse' && count > 0 && !trueFalse) bad(2, 'a truefalse question’s choices are True and False: leave them empty');
  if (kind !== 'text' && kind !== 'truefalse' && count < L.minChoices) bad(2 + count, `a question needs at least ${L.minChoices} choices`);

  const correct = cell(columns - 1);
  const accepted = named.accepted === undefined ? '' : cell(named.accepted);
  if (kind !== 'text' && accepted !== '') bad(named.accepted! + 1, `only a text question has accepted answers; this is a ${kind} question`);
  const own = { ...readSeconds(cell, named.seconds, bad) };
  switch (kind) {
    case 'choice':
      return { text, choices, correct: choiceNumber(correct, count, columns, bad), ...own };
    case 'truefalse': {
      const answer = TRUE_FALSE_CELLS.get(correct.toLowerCase());
      if (answer === undefined)
        bad(
          columns,
          `correct must be true or false (or 1 for true, 2 for false)${correct === '' ? '; it is empty' : `, not "${correct.slice(0, 20)}"`}`,
        );
      return { kind, text, choices: [...TRUE_FALSE_CHOICES], correct: answer, ...own };
    }
    case 'multi': {
      const picks = correct.split(LIST_SEPARATOR).map((p) => p.trim());
      const numbers = picks.map(Number);
      if (
        correct === '' ||
        picks.some((p) => !/^\d+$/.test(p)) ||
        numbers.some((n) => n < 1 || n > count) ||
        new Set(numbers).size !== numbers.length
      )
        bad(
          columns,
          `correct must be the numbers of the right choices, each from 1 to ${count}, separated by ${LIST_SEPARATOR} (such as 1${LIST_SEPARATOR}3)`,
        );
      return { kind, text, choices, correct: numbers.map((n) => n - 1).sort((a, b) => a - b), ...own };
    }
    case 'poll':
      if (correct !== '') bad(columns, 'a poll has no right answer: leave correct empty');
      return { kind, text, choices, ...own };
    case 'text':
      if (correct !== '') bad(columns, 'a text question’s right answers go in accepted: leave correct empty');
      return { kind, text, accepted: readAccepted(accepted, named.accepted ?? named.kind!, bad), ...own };
  }
}

/** Refuses the row, naming a column (1-based) of its line. */
type Refuse = (column: number, message: string) => never;

/** The ways a spreadsheet user may write a true/false question's `correct` cell. */
const TRUE_FALSE_CELLS: ReadonlyMap<string, number> = new Map([
  ['true', 0],
  ['1', 0],
  ['false', 1],
  ['2', 1],
]);

/** Reads the `correct` cell of a choice question, which holds the 1-based number of the right choice. */
function choiceNumber(correct: string, count: number, column: number, bad: Refuse): number {
  const number = /^\d+$/.test(correct) ? Number(correct) : NaN;
  if (!(number >= 1 && number <= count))
    bad(
      column,
      `correct must be the number of the right choice, 1 to ${count}${correct === '' ? '; it is empty' : `, not "${correct.slice(0, 20)}"`}`,
    );
  return number - 1;
}

/** Reads the question's own seconds, when its cell has them. */
function readSeconds(cell: (i: number) => string, at: number | undefined, bad: Refuse): { seconds?: number } {
  const value = at === undefined ? '' : cell(at);
  if (value === '') return {};
  const seconds = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= L.minSeconds && seconds <= L.maxSeconds))
    bad(
      at! + 1,
      `seconds must be a whole number from ${L.minSeconds} to ${L.maxSeconds} (empty: the room's time), not "${value.slice(0, 20)}"`,
    );
  return { seconds };
}

/** Reads a text question's accepted answers: 1 to 10 of them, separated by `|`, each 1 to 40 printable characters. */
function readAccepted(value: string, at: number, bad: Refuse): string[] {
  const why = `a text question needs its accepted answers in the accepted column: 1 to ${L.maxAccepted}, separated by ${LIST_SEPARATOR}, each 1 to ${L.accepted} printable characters`;
  if (value === '') bad(at + 1, why);
  const answers = value.split(LIST_SEPARATOR).map((a) => printableText(a.trim(), L.accepted));
  if (answers.length > L.maxAccepted || answers.some((a) => a === undefined)) bad(at + 1, why);
  return answers as string[];
}

/**
 * Writes a deck as CSV in the import's format (`GET /api/decks/{id}.csv`). It writes every column of
 * the template, so that the file reads back as the same questions. Pictures are left out, because a
 * CSV carries no image.
 */
export function deckCsv(questions: readonly NewQuestion[]): string {
  const rows = questions.map((q) => {
    const kind = q.kind ?? 'choice';
    const choices = kind === 'truefalse' || kind === 'text' ? [] : (q.choices ?? []);
    const correct =
      q.correct === undefined
        ? ''
        : typeof q.correct === 'number'
          ? String(q.correct + 1)
          : q.correct.map((c) => c + 1).join(LIST_SEPARATOR);
    return [
      q.text,
      ...Array.from({ length: L.maxChoices }, (_, i) => choices[i] ?? ''),
      kind === 'truefalse' ? (q.correct === 0 ? 'true' : 'false') : correct,
      kind,
      q.seconds === undefined ? '' : String(q.seconds),
      (q.accepted ?? []).join(LIST_SEPARATOR),
    ];
  });
  return [DECK_CSV_COLUMNS as readonly string[], ...rows].map((row) => row.map(quotedCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * Quotes a cell as RFC 4180 does. A cell that holds a comma, a quote or a line break goes in double
 * quotes, and each quote in it is doubled.
 */
function quotedCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
