import { BadCsvException } from './deck.errors';
import { DECK_CSV_TEMPLATE, deckCsv, readDeckCsv } from './deck-csv';

const HEADER = 'question,choice1,choice2,choice3,choice4,choice5,choice6,correct';

/** The bad_csv a file gets: where, and the message's gist. */
function refusal(csv: string): { line: number; column: number; message: string } {
  try {
    readDeckCsv(csv);
  } catch (err) {
    if (err instanceof BadCsvException) return { ...err.details, message: err.message };
    throw err;
  }
  throw new Error('the file was taken');
}

describe(readDeckCsv.name, () => {
  describe('reads what spreadsheets export', () => {
    it('the template, with its quoted commas and doubled quotes, and a question of each kind', () => {
      expect(readDeckCsv(DECK_CSV_TEMPLATE)).toEqual([
        { text: 'Which planet is known as the red planet?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], correct: 1 },
        { text: 'Which of these is a fruit, botanically?', choices: ['Carrot', 'Tomato'], correct: 1, seconds: 30 },
        { text: 'Who wrote "Hamlet"?', choices: ['Charles Dickens', 'William Shakespeare', 'Jane Austen'], correct: 1 },
        { kind: 'truefalse', text: 'The Sun is a star.', choices: ['True', 'False'], correct: 0 },
        { kind: 'multi', text: 'Which of these are prime numbers?', choices: ['2', '3', '4', '9'], correct: [0, 1] },
        { kind: 'poll', text: 'Which season do you like best?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] },
        { kind: 'text', text: 'What is the capital of France?', accepted: ['Paris', 'Paris city'], seconds: 20 },
      ]);
    });

    it('a UTF-8 BOM, CRLF, a line break inside a quoted cell (read as a space), blank rows and rows of empty cells', () => {
      const csv = `\uFEFF${HEADER}\r\n"Two\r\nlines?",a,b,,,,,1\r\n\r\n,,,,,,,\r\nÉté ou hiver ?,été,hiver,,,,,2\r\n`;
      expect(readDeckCsv(csv)).toEqual([
        { text: 'Two lines?', choices: ['a', 'b'], correct: 0 },
        { text: 'Été ou hiver ?', choices: ['été', 'hiver'], correct: 1 },
      ]);
    });

    it('six choices, a header with fewer choice columns, LF or CR line ends, no line end at the end', () => {
      expect(readDeckCsv(`${HEADER}\n6?,1,2,3,4,5,6,6`)).toEqual([{ text: '6?', choices: ['1', '2', '3', '4', '5', '6'], correct: 5 }]);
      expect(readDeckCsv('question,choice1,choice2,correct\rYes?,yes,no,1\r')).toEqual([
        { text: 'Yes?', choices: ['yes', 'no'], correct: 0 },
      ]);
    });

    it('semicolons when the header row has them and no comma, keeping commas inside cells', () => {
      const csv = 'question;choice1;choice2;correct\r\nPi, roughly?;3,14;2,72;1\r\n';
      expect(readDeckCsv(csv)).toEqual([{ text: 'Pi, roughly?', choices: ['3,14', '2,72'], correct: 0 }]);
    });

    it('trims cells and ignores empty cells past the correct column', () => {
      expect(readDeckCsv(`${HEADER},,\n  Spaces?  , a , b ,,,,, 2 ,,\n`)).toEqual([{ text: 'Spaces?', choices: ['a', 'b'], correct: 1 }]);
    });
  });

  describe('reads question kinds from the columns after correct (section 13)', () => {
    const KINDS = `${HEADER},kind,seconds,accepted`;

    it('takes the kind columns in any order, and their names in any case', () => {
      const csv = `${HEADER},Accepted,KIND\r\nCapital?,,,,,,,,Paris| paris  city ,text\r\nSun a star?,true,false,,,,,2,,truefalse\r\n`;
      expect(readDeckCsv(csv)).toEqual([
        { kind: 'text', text: 'Capital?', accepted: ['Paris', 'paris city'] },
        { kind: 'truefalse', text: 'Sun a star?', choices: ['True', 'False'], correct: 1 },
      ]);
    });

    it('reads an empty kind as choice, and multi answers in any order', () => {
      expect(readDeckCsv(`${KINDS}\r\nQ?,a,b,,,,,2,,,\r\nP?,a,b,c,,,,3|1,Multi,15,\r\n`)).toEqual([
        { text: 'Q?', choices: ['a', 'b'], correct: 1 },
        { kind: 'multi', text: 'P?', choices: ['a', 'b', 'c'], correct: [0, 2], seconds: 15 },
      ]);
    });

    it('writes a deck of every kind that reads back as itself', () => {
      const deck = readDeckCsv(DECK_CSV_TEMPLATE);
      const written = deckCsv(deck);
      expect(written.split('\r\n')[0]).toBe(KINDS);
      expect(readDeckCsv(written)).toEqual(deck);
    });

    it.each([
      ['an unknown kind', `${KINDS}\r\nQ?,a,b,,,,,1,slider,,\r\n`, 2, 9, /kind must be one of/],
      ['a kind column before correct', `question,choice1,choice2,kind,correct\r\nQ?,a,b,,1\r\n`, 1, 4, /goes after correct/],
      ['a text question with choices', `${KINDS}\r\nQ?,a,,,,,,,text,,a\r\n`, 2, 2, /has no choices/],
      ['a text question without accepted answers', `${KINDS}\r\nQ?,,,,,,,,text,,\r\n`, 2, 11, /needs its accepted answers/],
      ['an empty accepted answer', `${KINDS}\r\nQ?,,,,,,,,text,,a||b\r\n`, 2, 11, /needs its accepted answers/],
      ['a text question with a correct cell', `${KINDS}\r\nQ?,,,,,,,1,text,,a\r\n`, 2, 8, /leave correct empty/],
      ['a poll with a right answer', `${KINDS}\r\nQ?,a,b,,,,,1,poll,,\r\n`, 2, 8, /no right answer/],
      ['a true/false question answered "yes"', `${KINDS}\r\nQ?,,,,,,,yes,truefalse,,\r\n`, 2, 8, /true or false/],
      ['a true/false question with other choices', `${KINDS}\r\nQ?,Yes,No,,,,,1,truefalse,,\r\n`, 2, 2, /True and False/],
      ['a multi answer past the choices', `${KINDS}\r\nQ?,a,b,,,,,1|3,multi,,\r\n`, 2, 8, /each from 1 to 2/],
      ['a multi answer twice the same', `${KINDS}\r\nQ?,a,b,,,,,1|1,multi,,\r\n`, 2, 8, /separated by \|/],
      ['accepted answers on a choice question', `${KINDS}\r\nQ?,a,b,,,,,1,,,a\r\n`, 2, 11, /only a text question/],
      ['seconds under 5', `${KINDS}\r\nQ?,a,b,,,,,1,,4,\r\n`, 2, 10, /seconds must be a whole number from 5 to 240/],
      ['a cell past the last named column', `${KINDS}\r\nQ?,a,b,,,,,1,,,,x\r\n`, 2, 12, /past the last column \(11, accepted\)/],
    ])('names %s', (_what, csv, line, column, message) => {
      const got = refusal(csv);
      expect([got.line, got.column]).toEqual([line, column]);
      expect(got.message).toMatch(message);
    });
  });

  describe('names the first bad cell by its line (1 = the header) and column', () => {
    it.each([
      ['an empty file', '', 1, 1, /empty/],
      ['a header and nothing else', `${HEADER}\r\n`, 2, 1, /no questions/],
      ['a first line that is a question', 'Q?,a,b,1\r\nR?,a,b,2\r\n', 1, 4, /header row/],
      ['a header with one choice column', 'question,choice1,correct\r\nQ?,a,1\r\n', 1, 4, /too few columns/],
      ['an empty question', `${HEADER}\r\nQ?,a,b,,,,,1\r\n ,a,b,,,,,1\r\n`, 3, 1, /question is empty/],
      ['one choice', `${HEADER}\r\nQ?,only,,,,,,1\r\n`, 2, 3, /at least 2 choices/],
      ['a gap between choices', `${HEADER}\r\nQ?,a,,c,,,,1\r\n`, 2, 3, /choice2 is empty/],
      ['two choices alike', `${HEADER}\r\nQ?,a,b,a,,,,1\r\n`, 2, 4, /choice3 is the same as choice1/],
      ['correct past the choices', `${HEADER}\r\nQ?,a,b,c,,,,4\r\n`, 2, 8, /1 to 3/],
      ['correct counted from 0', `${HEADER}\r\nQ?,a,b,,,,,0\r\n`, 2, 8, /1 to 2/],
      ['correct as text', `${HEADER}\r\nQ?,a,b,,,,,b\r\n`, 2, 8, /not "b"/],
      ['correct missing', `${HEADER}\r\nQ?,a,b,1\r\n`, 2, 8, /it is empty/],
      ['a cell past the correct column', `${HEADER}\r\nQ?,a,b,,,,,1,extra\r\n`, 2, 9, /past the last column/],
      ['a question too long', `${HEADER}\r\n${'x'.repeat(301)},a,b,,,,,1\r\n`, 2, 1, /1 to 300/],
      ['a choice too long', `${HEADER}\r\nQ?,a,${'y'.repeat(121)},,,,,1\r\n`, 2, 3, /choice2 must be 1 to 120/],
      ['a quoted cell that goes on after its quote', `${HEADER}\r\nQ?,"a" b,c,,,,,1\r\n`, 2, 2, /goes on after its closing quote/],
      ['a stray quote', `${HEADER}\r\nQ?,a"b,c,,,,,1\r\n`, 2, 2, /inside a cell that does not start with one/],
    ])('%s', (_what, csv, line, column, message) => {
      const got = refusal(csv);
      expect([got.line, got.column]).toEqual([line, column]);
      expect(got.message).toMatch(message);
      expect(got.message).toMatch(new RegExp(`^line ${line}, column ${column}: `));
    });

    it('counts the lines of a quoted cell that spans several, and of blank rows, to find the row', () => {
      const csv = `${HEADER}\r\n"One\r\ntwo\r\nthree",a,b,,,,,1\r\n\r\nQ?,a,b,,,,,9\r\n`;
      expect(refusal(csv)).toMatchObject({ line: 6, column: 8 });
    });

    it('an unclosed quote is named where its row starts, not at the end of the file', () => {
      const csv = `${HEADER}\r\nQ?,a,b,,,,,1\r\n\r\n"Never closed,a,b,,,,,1\r\nR?,a,b,,,,,1\r\n`;
      expect(refusal(csv)).toMatchObject({ line: 4, column: 1, message: expect.stringMatching(/never closed/) });
    });

    it('more than 200 questions: the 201st row', () => {
      const rows = Array.from({ length: 201 }, (_, i) => `Q${i}?,a,b,,,,,1`);
      expect(refusal([HEADER, ...rows].join('\n'))).toMatchObject({ line: 202, column: 1, message: expect.stringMatching(/at most 200/) });
      expect(readDeckCsv([HEADER, ...rows.slice(0, 200)].join('\n'))).toHaveLength(200);
    });
  });
});
