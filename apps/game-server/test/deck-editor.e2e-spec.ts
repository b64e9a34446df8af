import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import { HttpApi } from '@app/bot-kit';
import { BUILTIN_DECK_ID } from '../../../migrations';
import { RunningServer } from '../src/server';
import { screenshotsDir, TestBrowser, violationsOf, withPagesServer } from './browser';
import { queryDb } from './support';

// The deck editor in a real browser (issue 24): a host writes a 10-question deck, reorders and
// deletes questions, previews one as players see it, saves it and hosts a game with it; imports
// a good CSV and sees a bad one's line and column; downloads the template. Under the pages'
// Content-Security-Policy, with not one violation.

// `UPDATE_SCREENSHOTS=1 npx jest deck-editor` writes docs/screenshots/deck-editor.png.

const QUESTIONS: { text: string; choices: string[]; right: number }[] = [
  { text: 'Which planet is called the red planet?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], right: 1 },
  { text: 'How many legs has a spider?', choices: ['Six', 'Eight', 'Ten'], right: 1 },
  { text: 'What is the boiling point of water at sea level, in °C?', choices: ['90', '100'], right: 1 },
  { text: 'Which ocean is the largest?', choices: ['Atlantic', 'Indian', 'Pacific', 'Arctic'], right: 2 },
  { text: 'Who painted the Mona Lisa?', choices: ['Leonardo da Vinci', 'Michelangelo', 'Raphael'], right: 0 },
  { text: 'What gas do plants take in?', choices: ['Oxygen', 'Carbon dioxide', 'Nitrogen'], right: 1 },
  { text: 'How many continents are there?', choices: ['5', '6', '7', '8', '9', '10'], right: 2 },
  { text: 'Which is the smallest prime number?', choices: ['0', '1', '2'], right: 2 },
  { text: 'What is the capital of Canada?', choices: ['Toronto', 'Ottawa', 'Vancouver', 'Montreal'], right: 1 },
  { text: 'Which metal is liquid at room temperature?', choices: ['Mercury', 'Iron'], right: 0 },
];
const HEADER = 'question,choice1,choice2,choice3,choice4,choice5,choice6,correct';

describe('deck editor in a browser', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  const SCREENSHOTS = screenshotsDir('deck-editor');
  withPagesServer((s, b) => {
    server = s;
    browser = b;
  });

  const editorPage = () => browser.newWatchedPage({ viewport: { width: 1280, height: 900 } });

  async function writeQuestion(page: Page, n: number, q: (typeof QUESTIONS)[number]): Promise<void> {
    await page.getByLabel(`Text of question ${n}`, { exact: true }).fill(q.text);
    for (let j = 2; j < q.choices.length; j++)
      await page.getByRole('button', { name: `Add a choice to question ${n}`, exact: true }).click();
    for (const [j, choice] of q.choices.entries()) await page.getByLabel(`Question ${n}, choice ${j + 1}`, { exact: true }).fill(choice);
    await page.getByRole('radio', { name: `Right answer: choice ${q.right + 1} of question ${n}`, exact: true }).check();
  }

  const decksNamed = (name: string) =>
    queryDb<{ id: string }>(server, `SELECT id FROM decks WHERE name = $1 AND deleted_at IS NULL`, [name]);
  const storedQuestions = (deckId: string) =>
    queryDb<{ text: string; choices: string[]; correct: number }>(
      server,
      `SELECT text, choices, correct FROM questions WHERE deck_id = $1 ORDER BY position`,
      [deckId],
    );

  it('writes a 10-question deck, reorders and deletes questions, previews one, saves it and hosts a game with it', async () => {
    const page = await editorPage();
    await page.goto(`${server.url}/host`);
    await page.getByRole('link', { name: 'Write a deck' }).click();
    await page.waitForURL(`${server.url}/host/decks/new`);
    await page.getByLabel('Deck name').fill('Science and more');

    // Question 1, then 10 more added from the keyboard (Enter on the button; the new question
    // takes the focus); the extra one is deleted again.
    await writeQuestion(page, 1, QUESTIONS[0]);
    for (let n = 2; n <= 11; n++) {
      await page.getByRole('button', { name: 'Add a question' }).focus();
      await page.keyboard.press('Enter');
      await page.getByLabel(`Text of question ${n}`, { exact: true }).waitFor();
      expect(
        await page.getByLabel(`Text of question ${n}`, { exact: true }).evaluate((el: any) => el === el.ownerDocument.activeElement),
      ).toBe(true);
      if (n === 11) await page.keyboard.type('A question to delete');
      else await writeQuestion(page, n, QUESTIONS[n - 1]);
    }
    await page.getByRole('button', { name: 'Delete question 11' }).click();
    await page.getByLabel('Text of question 11').waitFor({ state: 'detached' });
    // Reordered: the last question moves up twice, to 8th.
    await page.getByRole('button', { name: 'Move up question 10' }).click();
    await page.getByRole('button', { name: 'Move up question 9' }).click();
    expect(await page.getByLabel('Text of question 8').inputValue()).toBe(QUESTIONS[9].text);
    const order = [...QUESTIONS.slice(0, 7), QUESTIONS[9], QUESTIONS[7], QUESTIONS[8]];

    // The preview shows question 8 as a phone does: its text, and a button named by each choice.
    await page.getByRole('button', { name: 'Preview question 8' }).click();
    const preview = page.getByRole('region', { name: 'Question 8 as a player sees it' });
    await preview.getByRole('heading', { name: QUESTIONS[9].text }).waitFor();
    expect(await preview.getByRole('button').allInnerTexts()).toEqual(QUESTIONS[9].choices.map((c, i) => `${'ABCDEF'[i]}\n${c}`));
    await preview.getByRole('button', { name: 'Mercury' }).click();
    await preview.getByRole('status').filter({ hasText: 'Right: that is the answer marked right.' }).waitFor();

    await page.getByRole('button', { name: 'Save deck' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: Science and more, 10 questions.' }).waitFor();
    await page.waitForURL(/\/host\/decks\/[0-9a-f-]{36}$/);
    const deckId = page.url().split('/').pop()!;
    expect(await storedQuestions(deckId)).toEqual(order.map((q) => ({ text: q.text, choices: q.choices, correct: q.right })));
    // The edit token is in this browser, and shown once.
    const token = await page.evaluate(`localStorage.getItem('trivia:deck-token:${deckId}')`);
    expect(await page.getByLabel('Edit token').innerText()).toBe(token);
    await page.getByRole('button', { name: 'Preview question 1', exact: true }).click();
    await page.screenshot({ path: join(SCREENSHOTS, 'deck-editor.png'), fullPage: false });

    // An edit after a reload: the page reads the deck back with its right answers, and PUTs it.
    await page.reload();
    expect(await page.getByLabel('Deck name').inputValue()).toBe('Science and more');
    expect(await page.getByRole('radio', { name: 'Right answer: choice 3 of question 7' }).isChecked()).toBe(true);
    await page.getByLabel('Question 2, choice 3').fill('Twelve');
    await page.getByRole('button', { name: 'Save deck' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: Science and more, 10 questions.' }).waitFor();
    expect((await storedQuestions(deckId))[1].choices).toEqual(['Six', 'Eight', 'Twelve']);

    // Hosting with it: the host form has the deck picked. It lists the built-in deck and this
    // browser's own (by the edit tokens it keeps), never another host's.
    const theirs = await new HttpApi(server.url).request('POST', '/api/decks', {
      name: 'Another host',
      questions: [{ text: 'Theirs?', choices: ['a', 'b'], correct: 0 }],
    });
    expect(theirs.status).toBe(201);
    await page.getByRole('link', { name: 'Host a game with this deck' }).click();
    await page.waitForURL(`${server.url}/host?deck=${deckId}`);
    await page.getByLabel('Host name').fill('Teacher');
    expect(await page.getByLabel('Deck').inputValue()).toBe(deckId);
    const listed = await page
      .getByLabel('Deck')
      .locator('option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    expect(listed[0]).toBe(BUILTIN_DECK_ID);
    expect(listed).toContain(deckId);
    expect(listed).not.toContain(theirs.body.id);
    await page.getByRole('button', { name: 'Open room' }).click();
    await page.waitForURL(/\/host\/[A-Z0-9]{6}$/);
    const code = page.url().split('/').pop();
    expect(
      await queryDb(
        server,
        `SELECT settings->>'deckId' AS deck_id, (settings->>'questionCount')::int AS question_count FROM rooms WHERE code = $1 AND closed_at IS NULL`,
        [code],
      ),
    ).toEqual([{ deck_id: deckId, question_count: 10 }]);
    expect(await violationsOf(page)).toEqual([]);
  }, 120_000);

  it('imports a good CSV as a new deck, shows a bad one’s line and column, and downloads the template', async () => {
    const page = await editorPage();
    await page.goto(`${server.url}/host/decks/new`);

    // The template, downloaded as a file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the template' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deck-template.csv');
    const template = readFileSync((await download.path())!, 'utf8');
    // The template names the kind columns after correct (section 13); a file without them still imports, as below.
    expect(template.split('\r\n')[0]).toBe(`${HEADER},kind,seconds,accepted`);

    // A bad file: the alert names the cell; no deck is made.
    await page.getByLabel('Deck name').fill('From a sheet');
    const bad = `${HEADER}\r\nQ1?,a,b,,,,,1\r\nQ2?,,b,c,,,,2\r\n`;
    await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('alert').filter({ hasText: 'Line 3, column 2 (B): choice1 is empty but a later choice is not' }).waitFor();
    expect(await decksNamed('From a sheet')).toEqual([]);
    expect(page.url()).toBe(`${server.url}/host/decks/new`);

    // A good file, as a spreadsheet saves it: a BOM, CRLF, quoted commas and quotes.
    const good = `\uFEFF${HEADER}\r\n"Which is a fruit, botanically?",Carrot,Tomato,,,,,2\r\n"Who wrote ""Hamlet""?",Dickens,Shakespeare,Austen,,,,2\r\n`;
    await page.getByLabel('CSV file').setInputFiles({ name: 'quiz.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.getByRole('status').filter({ hasText: 'Imported 2 questions from quiz.csv as a new deck, From a sheet.' }).waitFor();
    await page.waitForURL(/\/host\/decks\/[0-9a-f-]{36}$/);
    const [deck] = await decksNamed('From a sheet');
    expect(page.url()).toBe(`${server.url}/host/decks/${deck.id}`);
    // The editor holds the imported deck, right answers and all, ready to edit.
    expect(await page.getByLabel('Text of question 2', { exact: true }).inputValue()).toBe('Who wrote "Hamlet"?');
    expect(await page.getByRole('radio', { name: 'Right answer: choice 2 of question 1', exact: true }).isChecked()).toBe(true);
    expect(await storedQuestions(deck.id)).toEqual([
      { text: 'Which is a fruit, botanically?', choices: ['Carrot', 'Tomato'], correct: 1 },
      { text: 'Who wrote "Hamlet"?', choices: ['Dickens', 'Shakespeare', 'Austen'], correct: 1 },
    ]);

    // Deleting it, after asking.
    await page.getByRole('button', { name: 'Delete deck' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('heading', { name: 'Deck deleted' }).waitFor();
    expect(await decksNamed('From a sheet')).toEqual([]);
    expect(await violationsOf(page)).toEqual([]);
  }, 60_000);
});
