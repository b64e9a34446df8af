import { printableText } from '@app/protocol';
import { CsvError, parse } from 'csv-parse/sync';
import { NewQuestion } from './deck.repository';
import { BadCsvException } from './deck.errors';
import { DECK_LIMITS as L } from './deck-limits';

// A deck as a spreadsheet exports it (PROTOCOL.md section 12): a header row, then one question a
// row: `question,choice1,...,choice6,correct`, `correct` the 1-based number of the right choice.
// Quoting is RFC 4180's (cells with commas, quotes or line breaks in double quotes, a quote in
// one doubled); line ends may be CRLF, LF or CR; a UTF-8 BOM is dropped; a semicolon is the
// separator when the header row has semicolons and no comma (spreadsheets in locales whose
// decimal mark is a comma export so). Blank rows, and rows of empty cells, are skipped.

export const DECK_CSV_HEADER = ['question', 'choice1', 'choice2', 'choice3', 'choice4', 'choice5', 'choice6', 'correct'] as const;

/** What `GET /api/decks/template.csv` serves: the header and three rows that show the quoting. */
export const DECK_CSV_TEMPLATE =
  [
    DECK_CSV_HEADER.join(','),
    'Which planet is known as the red planet?,Venus,Mars,Jupiter,Saturn,,,2',
    '"Which of these is a fruit, botanically?",Carrot,Tomato,,,,,2',
    '"Who wrote ""Hamlet""?",Charles Dickens,William Shakespeare,Jane Austen,,,,2',
  ].join('\r\n') + '\r\n';

const QUOTE_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed: a double quote (") opens it and none ends it',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted cell goes on after its closing quote; inside quotes, write a double quote as two ("")',
  INVALID_OPENING_QUOTE:
    'a double quote (") inside a cell that does not start with one: put the whole cell in quotes and write the quote as two ("")',
};

interface Row {
  readonly cells: readonly string[];
  /** The line of the file on which the row starts (1 = the header). */
  readonly line: number;
}

/** The questions of a deck's CSV, or a BadCsvException naming the first bad cell. */
export function readDeckCsv(csv: string): NewQuestion[] {
  const [header, ...rows] = readRows(csv);
  if (!header)
    throw new BadCsvException(1, 1, `the file is empty: it needs a header row (${DECK_CSV_HEADER.join(',')}) and a row per question`);
  const columns = readHeader(header.cells);
  if (rows.length === 0) throw new BadCsvException(2, 1, 'no questions: after the header row, write one question a row');
  if (rows.length > L.maxQuestions) {
    throw new BadCsvException(
      rows[L.maxQuestions].line,
      1,
      `a deck holds at most ${L.maxQuestions} questions; this is question ${L.maxQuestions + 1}`,
    );
  }
  return rows.map((row) => readQuestion(row, columns));
}

function readRows(csv: string): Row[] {
  // One line end for the parser, so that its line count is the file's (it counts a CRLF inside
  // quotes twice); a line break inside a cell becomes a space later anyway.
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
    // An unclosed quote is found at the end of the file: the row it opened in is the one to name.
    const line = err.code === 'CSV_QUOTE_NOT_CLOSED' ? nextRowLine(text, lastLine) : (at.lines ?? lastLine + 1);
    throw new BadCsvException(line, (at.column ?? 0) + 1, QUOTE_ERRORS[err.code] ?? err.message);
  }
}

/** The first line after `after` that is not blank (nor only separators): where the next row starts. */
function nextRowLine(text: string, after: number): number {
  const lines = text.split('\n');
  let i = after;
  while (i < lines.length - 1 && /^[\s,;]*$/.test(lines[i])) i++;
  return i + 1;
}

/** How many columns the rows have: the question, the choices, and `correct` in the last one. */
function readHeader(cells: readonly string[]): number {
  let n = cells.length;
  while (n > 0 && cells[n - 1].trim() === '') n--;
  const expected = `the header row names the columns: ${DECK_CSV_HEADER.join(',')} (2 to 6 choices)`;
  if (/^\s*\d+\s*$/.test(cells[n - 1] ?? ''))
    throw new BadCsvException(1, n, `line 1 must be the header row; this one looks like a question (${expected})`);
  if (n < 2 + L.minChoices) throw new BadCsvException(1, n + 1, `too few columns: ${expected}`);
  if (n > 2 + L.maxChoices) throw new BadCsvException(1, 2 + L.maxChoices + 1, `too many columns: ${expected}`);
  return n;
}

function readQuestion({ cells, line }: Row, columns: number): NewQuestion {
  const cell = (i: number) => (cells[i] ?? '').replace(/\s+/g, ' ').trim();
  for (let i = columns; i < cells.length; i++) {
    if (cell(i) !== '') throw new BadCsvException(line, i + 1, `this cell is past the last column (${columns}, correct) the header names`);
  }
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
  if (count < L.minChoices) throw new BadCsvException(line, 2 + count, `a question needs at least ${L.minChoices} choices`);

  const correct = cell(columns - 1);
  const number = /^\d+$/.test(correct) ? Number(correct) : NaN;
  if (!(number >= 1 && number <= count)) {
    throw new BadCsvException(
      line,
      columns,
      `correct must be the number of the right choice, 1 to ${count}${correct === '' ? '; it is empty' : `, not "${correct.slice(0, 20)}"`}`,
    );
  }
  return { text, choices, correct: number - 1 };
}
