import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import sharp from 'sharp';
import { HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { screenshotsDir, TestBrowser, violationsOf, WAIT_MS, withPagesServer } from './browser';

// Quizzes as teachers run them (issue 34) in a real browser: a host writes a deck with one
// question of each kind (one right choice, true or false, every right choice, a poll, a typed
// answer with a picture) in the editor, opens a room at the host's pace with the deck's order,
// and three phones (separate browser contexts) play it, one joining during the second question.
// The host moves on with the Next button and the presenter's keys (Right arrow, Page Down,
// Space), closes the last question early, and the game ends on the podium; the results page and
// its CSV show each kind right. Another test exports a deck as CSV and JSON, which the server
// takes back as the same deck, and duplicates it with its picture. Under the pages'
// Content-Security-Policy, with not one violation. Every wait is on what a page shows.

// `UPDATE_SCREENSHOTS=1 npx jest quiz-kinds` writes docs/screenshots/quiz-editor.png,
// phone-picture.png and podium.png.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const EDITOR = { viewport: { width: 1280, height: 1000 } };

const Q = {
  choice: { text: 'Which planet is called the red planet?', choices: ['Venus', 'Mars', 'Jupiter'], right: 1 },
  truefalse: { text: 'The Pacific is the largest ocean.', right: 'True' },
  multi: { text: 'Which of these are prime numbers?', choices: ['2', '3', '4', '9'], rights: [0, 1] },
  poll: { text: 'Which topic should we do next week?', choices: ['Space', 'Oceans', 'Volcanoes'] },
  text: { text: 'What is the capital of France?', accepted: ['Paris', 'Paname'] },
};

/** A PNG of four coloured stripes, as a teacher's picture stands in for here. */
function stripesPng(width: number, height: number): Promise<Buffer> {
  const colours = [
    { r: 225, g: 29, b: 72 },
    { r: 37, g: 99, b: 235 },
    { r: 217, g: 119, b: 6 },
    { r: 22, g: 163, b: 74 },
  ];
  const stripe = Math.ceil(width / colours.length);
  return sharp({ create: { width, height, channels: 3, background: colours[0] } })
    .composite(
      colours.slice(1).map((background, i) => ({
        input: { create: { width: stripe, height, channels: 3 as const, background } },
        left: (i + 1) * stripe,
        top: 0,
      })),
    )
    .png()
    .toBuffer();
}

interface ResultsJson {
  standings: { playerId: string; name: string; score: number; correct: number; rank: number; from?: number }[];
  questions: {
    index: number;
    kind: string;
    text: string;
    correct: unknown;
    rightRate: number | null;
    answers: { name: string; choice?: number | null; choices?: number[]; text?: string; right: boolean; points: number }[];
  }[];
}

/** A CSV line's cells (RFC 4180: quoted cells may hold commas and doubled quotes). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  out.push(cell);
  return out;
}

describe('quizzes with every question kind in a browser', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let api: HttpApi;
  const SCREENSHOTS = screenshotsDir('quiz-kinds');
  withPagesServer((s, b) => {
    server = s;
    browser = b;
    api = new HttpApi(server.url);
  });

  const fill = (page: Page, label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);

  /** Writes the five questions in the editor, one of each kind, and saves the deck; then gives the last its picture. */
  async function writeDeck(page: Page): Promise<string> {
    await page.goto(`${server.url}/host/decks/new`);
    await fill(page, 'Deck name', 'Every kind');
    const add = async (n: number, kind: string) => {
      if (n > 1) await page.getByRole('button', { name: 'Add a question' }).click();
      await page.getByLabel(`Kind of question ${n}`, { exact: true }).selectOption(kind);
    };

    await add(1, 'choice');
    await fill(page, 'Text of question 1', Q.choice.text);
    await page.getByRole('button', { name: 'Add a choice to question 1', exact: true }).click();
    for (const [j, c] of Q.choice.choices.entries()) await fill(page, `Question 1, choice ${j + 1}`, c);
    await page.getByRole('radio', { name: `Right answer: choice ${Q.choice.right + 1} of question 1`, exact: true }).check();
    await fill(page, 'Seconds of question 1', '240');

    // A true-or-false question shows no choices to write: only which of the two is right.
    await add(2, 'truefalse');
    await fill(page, 'Text of question 2', Q.truefalse.text);
    expect(await page.getByLabel('Question 2, choice 1', { exact: true }).count()).toBe(0);
    await page.getByRole('radio', { name: 'True is right in question 2', exact: true }).check();

    await add(3, 'multi');
    await fill(page, 'Text of question 3', Q.multi.text);
    for (let j = 2; j < Q.multi.choices.length; j++)
      await page.getByRole('button', { name: 'Add a choice to question 3', exact: true }).click();
    for (const [j, c] of Q.multi.choices.entries()) await fill(page, `Question 3, choice ${j + 1}`, c);
    for (const j of Q.multi.rights)
      await page.getByRole('checkbox', { name: `Right answer: choice ${j + 1} of question 3`, exact: true }).check();

    // A poll has choices and nothing to mark right.
    await add(4, 'poll');
    await fill(page, 'Text of question 4', Q.poll.text);
    await page.getByRole('button', { name: 'Add a choice to question 4', exact: true }).click();
    for (const [j, c] of Q.poll.choices.entries()) await fill(page, `Question 4, choice ${j + 1}`, c);
    expect(await page.getByRole('radio', { name: /of question 4$/ }).count()).toBe(0);

    // A typed answer has accepted answers instead of choices.
    await add(5, 'text');
    await fill(page, 'Text of question 5', Q.text.text);
    expect(await page.getByLabel('Question 5, choice 1', { exact: true }).count()).toBe(0);
    await fill(page, 'Question 5, accepted answer 1', Q.text.accepted[0]);
    await page.getByRole('button', { name: 'Add an accepted answer to question 5', exact: true }).click();
    await fill(page, 'Question 5, accepted answer 2', Q.text.accepted[1]);

    await page.getByRole('button', { name: 'Save deck' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: Every kind, 5 questions.' }).waitFor();
    await page.waitForURL(/\/host\/decks\/[0-9a-f-]{36}$/);
    const deckId = page.url().split('/').pop()!;

    // The picture, once the deck is saved (an image belongs to its deck), then saved with the question.
    await page
      .getByLabel('Picture for question 5', { exact: true })
      .setInputFiles({ name: 'stripes.png', mimeType: 'image/png', buffer: await stripesPng(320, 200) });
    await page.getByRole('img', { name: 'Picture for question 5: chosen picture' }).waitFor();
    await page.getByRole('button', { name: 'Save deck' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: Every kind, 5 questions.' }).waitFor();
    await page.getByRole('button', { name: 'Preview question 5', exact: true }).click();
    await page.getByRole('region', { name: 'Question 5 as a player sees it' }).getByRole('img').waitFor();
    return deckId;
  }

  /** From the start page: the room code, then a name, as a player on a phone would. */
  async function joinRoom(page: Page, code: string, name: string): Promise<void> {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Room code').fill(code);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.waitForURL(`${server.url}/play/${code}`);
    await page.getByLabel('Your name').fill(name);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByText(`You’re in, ${name}!`).waitFor();
  }

  const questionOn = (page: Page, n: number, text: string) =>
    page
      .getByRole('heading', { name: text })
      .and(page.locator('.play-question-text'))
      .waitFor()
      .then(() => page.getByText(`${n} / 5`).waitFor());

  it('a host writes a deck of every kind with a picture, plays it at its own pace with three phones (one late), and reads the results', async () => {
    const editor = await browser.newWatchedPage(EDITOR);
    const deckId = await writeDeck(editor);
    await editor.getByRole('button', { name: 'Preview question 3', exact: true }).click();
    await editor.getByLabel('Text of question 3', { exact: true }).scrollIntoViewIfNeeded();
    await editor.screenshot({ path: join(SCREENSHOTS, 'quiz-editor.png') });
    const token = String(await editor.evaluate(`localStorage.getItem('trivia:deck-token:${deckId}')`));
    const stored = await api.request('GET', `/api/decks/${deckId}`, undefined, { authorization: `Bearer ${token}` });
    expect(stored.status).toBe(200);
    const image = stored.body.questions[4].image as string;
    expect(typeof image).toBe('string');
    expect(stored.body.questions.map((q: { kind?: string }) => q.kind ?? 'choice')).toEqual([
      'choice',
      'truefalse',
      'multi',
      'poll',
      'text',
    ]);
    expect(stored.body.questions[0].seconds).toBe(240);
    expect(stored.body.questions[2].correct).toEqual(Q.multi.rights);
    expect(stored.body.questions[4].accepted).toEqual(Q.text.accepted);

    // The host opens the room from the editor's link: its pace, the deck's order.
    const host = editor;
    const hostFrames: string[] = [];
    host.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => void hostFrames.push(String(payload))));
    await host.setViewportSize({ width: 1600, height: 900 });
    await host.getByRole('link', { name: 'Host a game with this deck' }).click();
    await host.getByLabel('Host name').fill('Ms Rivera');
    await host.getByLabel('Questions', { exact: true }).fill('5');
    await host.getByLabel('Seconds per question').fill('300');
    await host.getByLabel('Pace').selectOption('host');
    await host.getByLabel('Order').selectOption('deck');
    await host.getByRole('button', { name: 'Open room' }).click();
    await host.waitForURL(/\/host\/[A-Z0-9]{6}$/);
    const code = (await host.getByTestId('room-code').innerText()).trim();

    const phones: Record<string, Page> = {};
    for (const name of ['Ann', 'Bob']) {
      phones[name] = await browser.newWatchedPage(PHONE);
      await joinRoom(phones[name], code, name);
      await host.getByRole('region', { name: 'Players' }).getByText(name, { exact: true }).waitFor();
    }
    const { Ann: ann, Bob: bob } = phones;
    const next = host.getByRole('button', { name: 'Next' });
    const reveal = host.getByRole('region', { name: 'Reveal' });
    const answered = (n: number, of: number) =>
      host
        .getByRole('status')
        .filter({ hasText: `${n} of ${of} answered` })
        .waitFor();
    const noFocus = () => host.evaluate('document.activeElement && document.activeElement.blur()');

    await host.getByRole('button', { name: 'Start game' }).click();

    // 1. One right choice, with its own 240 seconds.
    await questionOn(ann, 1, Q.choice.text);
    await host.getByText('Pick one answer').waitFor();
    await ann.getByRole('button', { name: 'Mars', exact: true }).click();
    await bob.getByRole('button', { name: 'Venus', exact: true }).click();
    await reveal.waitFor();
    expect(await reveal.locator('.count-row.correct .count-label').innerText()).toContain('Mars');
    await ann.getByRole('region', { name: 'Result' }).getByText('Right!').waitFor();
    await next.click();

    // 2. True or false; Cy arrives during it and plays from the next question.
    await questionOn(ann, 2, Q.truefalse.text);
    const cy = await browser.newWatchedPage(PHONE);
    await joinRoom(cy, code, 'Cy');
    await cy.getByText('The game has started: you play from the next question.').waitFor();
    await host.getByRole('region', { name: 'Players' }).getByText('Cy', { exact: true }).waitFor();
    await ann.getByRole('button', { name: 'True', exact: true }).click();
    await bob.getByRole('button', { name: 'False', exact: true }).click();
    await reveal.waitFor();
    await cy.getByText('The game has started: you play from the next question.').waitFor();
    await noFocus();
    await host.keyboard.press('ArrowRight');

    // 3. Every right choice: checkboxes and one Submit; Cy plays now.
    await questionOn(cy, 3, Q.multi.text);
    await answered(0, 3);
    const tick = async (phone: Page, picks: string[]) => {
      for (const pick of picks) await phone.getByRole('checkbox', { name: pick, exact: true }).check();
      await phone.getByRole('button', { name: 'Submit' }).click();
    };
    await tick(ann, ['2', '3']);
    await ann.getByRole('status').filter({ hasText: 'Answer in: 2, 3. Waiting for the others…' }).waitFor();
    await tick(bob, ['2']);
    await answered(2, 3);
    // Cy's is the last answer: the question closes at once.
    await tick(cy, ['2', '3']);
    await reveal.waitFor();
    expect(await reveal.locator('.count-row.correct .count-label').allInnerTexts()).toEqual(['2 ✓ right answer', '3 ✓ right answer']);
    await bob.getByRole('region', { name: 'Result' }).getByText('Not this time').waitFor();
    await cy.getByRole('region', { name: 'Result' }).getByText('Right!').waitFor();
    await noFocus();
    await host.keyboard.press('PageDown');

    // 4. A poll: the votes, nobody right, no points.
    await questionOn(ann, 4, Q.poll.text);
    await ann.getByRole('button', { name: 'Space', exact: true }).click();
    await bob.getByRole('button', { name: 'Oceans', exact: true }).click();
    await cy.getByRole('button', { name: 'Space', exact: true }).click();
    await reveal.waitFor();
    await reveal.getByText('A poll: no right answer, no points.').waitFor();
    expect(await reveal.locator('.count-row.correct').count()).toBe(0);
    expect(await reveal.locator('.count-number').allInnerTexts()).toEqual(['2', '1', '0']);
    await ann.getByRole('region', { name: 'Result' }).getByText('Vote counted').waitFor();
    await noFocus();
    await host.keyboard.press(' ');

    // 5. A typed answer with a picture; the host closes it before Cy answers.
    await questionOn(ann, 5, Q.text.text);
    const picture = ann.getByRole('img', { name: 'The question’s picture' });
    await picture.waitFor();
    await ann.waitForFunction(
      (img) => (img as { complete: boolean; naturalWidth: number }).complete && (img as { naturalWidth: number }).naturalWidth > 0,
      await picture.elementHandle(),
      {
        timeout: WAIT_MS,
      },
    );
    expect(
      await host.getByRole('region', { name: 'Question' }).getByRole('img', { name: 'The question’s picture' }).getAttribute('src'),
    ).toBe(`/api/images/${image}`);
    await ann.screenshot({ path: join(SCREENSHOTS, 'phone-picture.png') });
    await ann.getByLabel('Your answer').fill('  PÁRIS ');
    await ann.getByRole('button', { name: 'Submit' }).click();
    await bob.getByLabel('Your answer').fill('Lyon');
    await bob.getByLabel('Your answer').press('Enter');
    await answered(2, 3);
    await next.click();
    await reveal.waitFor();
    await reveal.getByText('Accepted: Paris, Paname').waitFor();
    expect(await reveal.locator('[data-typed] .count-number').allInnerTexts()).toEqual(['1', '1']);
    await cy.getByRole('region', { name: 'Result' }).getByText('No answer').waitFor();
    // What a player typed is never on the projector, nor in any frame to the host.
    expect(await host.locator('body').innerText()).not.toContain('Lyon');
    expect(hostFrames.filter((f) => f.includes('Lyon'))).toEqual([]);

    // The end: the podium, then every standing.
    await next.click();
    const podium = host.getByRole('list', { name: 'Podium' });
    await podium.waitFor();
    const finished = JSON.parse(hostFrames.find((f) => f.includes('"game.finished"'))!).data as {
      standings: { name: string }[];
      resultsId: string;
    };
    expect(await podium.locator('.podium-name').allInnerTexts()).toEqual(finished.standings.slice(0, 3).map((s) => s.name));
    expect(finished.standings[0].name).toBe('Ann');
    expect(await host.getByRole('list', { name: 'Standings' }).locator('li').count()).toBe(3);
    await host.screenshot({ path: join(SCREENSHOTS, 'podium.png') });

    // The results page: each kind's right answer and every answer as given.
    const results = await api.request<ResultsJson>('GET', `/api/results/${finished.resultsId}`);
    expect(results.status).toBe(200);
    expect(results.body.questions.map((q) => q.kind)).toEqual(['choice', 'truefalse', 'multi', 'poll', 'text']);
    expect(results.body.standings.find((s) => s.name === 'Cy')?.from).toBe(2);
    await host.getByRole('link', { name: 'Results page' }).click();
    await host.waitForURL(`${server.url}/results/${finished.resultsId}`);
    const region = (n: number, text: string) => host.getByRole('region', { name: `Question ${n} ${text}` });
    const figure = (n: number, text: string, name: string) => region(n, text).locator(`[data-figure="${name}"]`).innerText();
    expect(await figure(1, Q.choice.text, 'correct')).toBe('B: Mars');
    expect(await figure(2, Q.truefalse.text, 'correct')).toBe('A: True');
    expect(await figure(3, Q.multi.text, 'correct')).toBe('A: 2, B: 3');
    expect(await figure(4, Q.poll.text, 'correct')).toBe('None: a poll');
    expect(await figure(4, Q.poll.text, 'votes')).toBe('A: Space 2 · B: Oceans 1 · C: Volcanoes 0');
    expect(await figure(5, Q.text.text, 'correct')).toBe('Paris or Paname');
    const row = (n: number, text: string, name: string) =>
      region(n, text)
        .getByRole('row')
        .filter({ has: host.getByRole('rowheader', { name, exact: true }) })
        .locator('td')
        .allInnerTexts();
    expect((await row(1, Q.choice.text, 'Cy')).slice(0, 2)).toEqual(['Not yet joined', '—']);
    expect((await row(3, Q.multi.text, 'Bob')).slice(0, 2)).toEqual(['A: 2', 'Wrong']);
    expect((await row(4, Q.poll.text, 'Bob')).slice(0, 3)).toEqual(['B: Oceans', '—', '0']);
    expect((await row(5, Q.text.text, 'Ann')).slice(0, 2)).toEqual(['“PÁRIS”', 'Right']);
    expect((await row(5, Q.text.text, 'Bob')).slice(0, 2)).toEqual(['“Lyon”', 'Wrong']);
    expect((await row(5, Q.text.text, 'Cy')).slice(0, 2)).toEqual(['No answer', '—']);
    const standings = host.getByRole('table', { name: 'Final standings' });
    expect(await standings.getByRole('row').filter({ hasText: 'Cy' }).locator('td').last().innerText()).toBe('question 3');

    // Its CSV: a row per player per question the player could answer (Cy's from the third), each kind's answer in words.
    const [download] = await Promise.all([host.waitForEvent('download'), host.getByRole('link', { name: 'Download CSV' }).click()]);
    const lines = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter((l) => l !== '');
    const header = cells(lines[0]);
    expect(header).toEqual(['game', 'question', 'text', 'player', 'choice', 'right', 'points', 'ms']);
    expect(lines).toHaveLength(1 + 3 * 5 - 2);
    const csv = lines.slice(1).map((l) => Object.fromEntries(cells(l).map((c, i) => [header[i], c])));
    const csvRow = (question: number, player: string) => csv.find((r) => r.question === String(question) && r.player === player)!;
    expect([csvRow(2, 'Ann').choice, csvRow(2, 'Ann').right]).toEqual(['True', 'yes']);
    expect([csvRow(3, 'Ann').choice, csvRow(3, 'Ann').right]).toEqual(['2 | 3', 'yes']);
    expect([csvRow(4, 'Bob').choice, csvRow(4, 'Bob').right, csvRow(4, 'Bob').points]).toEqual(['Oceans', '', '0']);
    expect([csvRow(5, 'Bob').choice, csvRow(5, 'Bob').right]).toEqual(['Lyon', 'no']);
    expect([1, 2, 3].map((question) => csvRow(question, 'Cy') !== undefined)).toEqual([false, false, true]);
    expect([csvRow(5, 'Cy').choice, csvRow(5, 'Cy').right, csvRow(5, 'Cy').points]).toEqual(['', 'no', '0']);

    for (const page of [host, ann, bob, cy]) expect(await violationsOf(page)).toEqual([]);
  }, 180_000);

  it('exports a deck as CSV and JSON that the server takes back as the same deck, and duplicates it with its picture', async () => {
    // A deck of every kind with a picture, made through the API; this browser holds its token.
    const made = await api.request('POST', '/api/decks', {
      name: 'Export me',
      questions: [
        { text: Q.choice.text, choices: Q.choice.choices, correct: Q.choice.right, seconds: 30 },
        { kind: 'truefalse', text: Q.truefalse.text, correct: 0 },
        { kind: 'multi', text: Q.multi.text, choices: Q.multi.choices, correct: Q.multi.rights },
        { kind: 'poll', text: Q.poll.text, choices: Q.poll.choices },
        { kind: 'text', text: Q.text.text, accepted: Q.text.accepted },
      ],
    });
    expect(made.status).toBe(201);
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });
    const uploaded = await fetch(`${server.url}/api/decks/${made.body.id}/images`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', ...auth(made.body.editToken) },
      body: await stripesPng(64, 48),
    });
    expect(uploaded.status).toBe(201);
    const { imageId } = (await uploaded.json()) as { imageId: string };
    const original = (await api.request('GET', `/api/decks/${made.body.id}`, undefined, auth(made.body.editToken))).body;
    const withPicture = original.questions.map((q: object, i: number) => (i === 4 ? { ...q, image: imageId } : q));
    expect(
      (await api.request('PUT', `/api/decks/${made.body.id}`, { name: 'Export me', questions: withPicture }, auth(made.body.editToken)))
        .status,
    ).toBe(200);
    const questionsOf = async (id: string, token: string) =>
      ((await api.request('GET', `/api/decks/${id}`, undefined, auth(token))).body.questions as { image?: string }[]).map(
        ({ image, ...q }) => ({
          ...q,
          picture: image !== undefined,
        }),
      );
    const expected = await questionsOf(made.body.id, made.body.editToken);

    const page = await browser.newWatchedPage(EDITOR);
    await page.goto(`${server.url}/`);
    await page.evaluate(`localStorage.setItem('trivia:deck-token:${made.body.id}', ${JSON.stringify(made.body.editToken)})`);
    await page.goto(`${server.url}/host/decks/${made.body.id}`);
    expect(await page.getByLabel('Kind of question 5', { exact: true }).inputValue()).toBe('text');

    // CSV: the import's format; imported, it is the same deck (a picture stays on its server, so none comes back).
    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as CSV' }).click()]);
    expect(csvFile.suggestedFilename()).toBe('export-me.csv');
    const csv = readFileSync((await csvFile.path())!, 'utf8');
    const imported = await fetch(`${server.url}/api/decks/import?name=Imported`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    expect(imported.status).toBe(201);
    const back = (await imported.json()) as { id: string; editToken: string };
    expect(await questionsOf(back.id, back.editToken)).toEqual(expected.map((q) => ({ ...q, picture: false })));

    // JSON: the deck API's body, taken back whole.
    const [jsonFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
    expect(jsonFile.suggestedFilename()).toBe('export-me.json');
    const json = JSON.parse(readFileSync((await jsonFile.path())!, 'utf8'));
    expect(json.questions[4].image).toBe(imageId);
    const again = await api.request('POST', '/api/decks', {
      ...json,
      questions: json.questions.map(({ image: _, ...q }: { image?: string }) => q),
    });
    expect(again.status).toBe(201);
    expect(await questionsOf(again.body.id, again.body.editToken)).toEqual(expected.map((q) => ({ ...q, picture: false })));

    // Duplicate: a new deck of its own, with its own copy of the picture.
    await page.getByRole('button', { name: 'Duplicate deck' }).click();
    await page.getByRole('status').filter({ hasText: 'Duplicated as a new deck, Copy of Export me' }).waitFor();
    await page.waitForURL((url) => /\/host\/decks\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(made.body.id));
    const copyId = page.url().split('/').pop()!;
    const copyToken = String(await page.evaluate(`localStorage.getItem('trivia:deck-token:${copyId}')`));
    expect(await page.getByLabel('Deck name').inputValue()).toBe('Copy of Export me');
    expect(await questionsOf(copyId, copyToken)).toEqual(expected);
    const copied = (await api.request('GET', `/api/decks/${copyId}`, undefined, auth(copyToken))).body.questions[4].image as string;
    expect(copied).not.toBe(imageId);
    expect((await fetch(`${server.url}/api/images/${copied}`)).status).toBe(200);
    expect(await violationsOf(page)).toEqual([]);
  }, 120_000);
});
