import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { screenshotsDir, TestBrowser, violationsOf, WAIT_MS, withPagesServer } from './browser';

// The results page in a real browser (issue 24, item 2): a host screen runs a two-question game
// for three players on sockets, its finished stage links the results, and the page shows what
// GET /api/results/{id} says: the standings, each question's right choice, rate and answers,
// the hardest and slowest. Its CSV link downloads one row per player per question. Under the
// pages' Content-Security-Policy, with not one violation.

// `UPDATE_SCREENSHOTS=1 npx jest results-page` writes docs/screenshots/results-page.png.

const DECK = {
  name: 'Results test deck',
  questions: [
    { text: 'Which planet is called the red planet?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], correct: 1 },
    { text: 'How many legs has a spider?', choices: ['Six', 'Eight', 'Ten'], correct: 1 },
  ],
};
const LETTERS = 'ABCDEF';
const CSV_HEADER = 'game,question,text,player,choice,right,points,ms';

interface Results {
  code: string;
  number: number;
  finishedAt: number | string;
  readableUntil: number;
  standings: { playerId: string; name: string; score: number; correct: number; rank: number }[];
  questions: {
    index: number;
    text: string;
    choices?: string[];
    correct: number;
    rightRate: number;
    answers: { playerId: string; name: string; choice: number | null; right: boolean; points: number; ms: number | null }[];
  }[];
}

/** How the page writes a time (web-admin's formatMs): "350 ms", "2.35 s". */
function shownMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

/** How the page names a choice: its letter, and its text when the results carry it. */
const shownChoice = (q: Results['questions'][number], choice: number) =>
  q.choices ? `${LETTERS[choice]}: ${q.choices[choice]}` : LETTERS[choice];

const meanMs = (q: Results['questions'][number]) => {
  const times = q.answers.map((a) => a.ms).filter((ms): ms is number => ms !== null);
  return times.reduce((s, ms) => s + ms, 0) / times.length;
};

describe('results page in a browser', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let api: HttpApi;
  const SCREENSHOTS = screenshotsDir('results-page');
  // The host's browser keeps the deck's edit token, as the deck editor does: the host page lists
  // the built-in decks and those whose tokens the browser holds, no other host's.
  let deckToken: { key: string; token: string };
  withPagesServer(async (s, b) => {
    server = s;
    browser = b;
    api = new HttpApi(server.url);
    const made = await api.request('POST', '/api/decks', DECK);
    expect(made.status).toBe(201);
    deckToken = { key: `trivia:deck-token:${made.body.id}`, token: made.body.editToken };
  });

  const watchedPage = () => browser.newWatchedPage({ viewport: { width: 1280, height: 900 } });
  const rowsOf = (page: Page, table: ReturnType<Page['locator']>) =>
    table
      .locator('tbody tr')
      .evaluateAll((rows: any[]) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c: any) => c.textContent)));

  /** Opens a room from the host form; resolves with its code and the host's game.finished, when it comes. */
  async function hostRoom(page: Page): Promise<{ code: string; finished: Promise<{ standings: unknown[]; resultsId?: string }> }> {
    const finished = new Promise<{ standings: unknown[]; resultsId?: string }>((resolve) => {
      page.on('websocket', (ws) =>
        ws.on('framereceived', ({ payload }) => {
          const frame = JSON.parse(String(payload)) as { type?: string; data?: { standings: unknown[]; resultsId?: string } };
          if (frame.type === 'game.finished' && frame.data) resolve(frame.data);
        }),
      );
    });
    await page.goto(`${server.url}/`);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(deckToken.key)}, ${JSON.stringify(deckToken.token)})`);
    await page.goto(`${server.url}/host`);
    await page.getByLabel('Host name').fill('Quizmaster');
    await page.getByLabel('Deck').selectOption({ label: `${DECK.name} (${DECK.questions.length} questions)` });
    await page.getByLabel('Questions', { exact: true }).fill('2');
    await page.getByLabel('Seconds per question').fill('60');
    await page.getByLabel('Seconds of reveal').fill('0');
    await page.getByRole('button', { name: 'Open room' }).click();
    await page.waitForURL(/\/host\/[A-Z0-9]{6}$/);
    return { code: (await page.getByTestId('room-code').innerText()).trim(), finished };
  }

  it('plays a game, follows the host’s results link, shows what the API says, and downloads the CSV', async () => {
    const host = await watchedPage();
    const { code, finished } = await hostRoom(host);

    // Three players on sockets: Ann always right, Bob always wrong, Cy right on the red planet only.
    const names = ['Ann', 'Bob', 'Cy'];
    const players: SeatClient[] = [];
    try {
      for (const name of names) {
        const seat = await api.join(code, name);
        const client = await SeatClient.connect(server.url, seat.playerToken, { timeoutMs: WAIT_MS });
        await client.nextEvent('room.state');
        players.push(client);
        await host.getByRole('region', { name: 'Players' }).getByText(name, { exact: true }).waitFor();
      }
      await host.getByRole('button', { name: 'Start game' }).click();
      for (const index of [0, 1]) {
        const opened = await Promise.all(players.map((p) => p.nextEvent('question.open', (e) => e.data.index === index)));
        const q = DECK.questions.find((x) => x.text === opened[0].data.text)!;
        const right = q.correct;
        const wrong = (q.correct + 1) % q.choices.length;
        const picks = [right, wrong, q.text.includes('red planet') ? right : wrong];
        const replies = await Promise.all(players.map((p, i) => p.send('room.answer', { question: index, choice: picks[i] })));
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      }

      // The host's game.finished names the results; the finished stage links them.
      const { resultsId } = await finished;
      expect(typeof resultsId).toBe('string');
      await host.getByRole('region', { name: 'Final standings' }).waitFor();
      expect(await host.getByRole('link', { name: 'Download results (CSV)' }).getAttribute('href')).toBe(`/api/results/${resultsId}.csv`);
      const json = await api.request<Results>('GET', `/api/results/${resultsId}`);
      expect(json.status).toBe(200);
      const results = json.body;
      expect(results.code).toBe(code);
      for (const q of results.questions) expect(q.rightRate).toBeCloseTo(q.text.includes('red planet') ? 2 / 3 : 1 / 3, 2);

      // A host screen reloaded in the finished room still links them (room.state names them).
      await host.reload();
      await host.getByRole('region', { name: 'Final standings' }).waitFor();
      await host.getByRole('link', { name: 'Results page' }).click();
      await host.waitForURL(`${server.url}/results/${resultsId}`);
      const page = host;
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Results: room ${code}, game ${results.number}`);
      expect(await page.locator('time').first().getAttribute('datetime')).toBe(new Date(results.finishedAt).toISOString());
      // Until when the link answers: what the API says (the server's results window), not a fixed text.
      expect(await page.locator('time').nth(1).getAttribute('datetime')).toBe(new Date(results.readableUntil).toISOString());

      // The standings, row by row.
      expect(await rowsOf(page, page.getByRole('table', { name: 'Final standings' }))).toEqual(
        results.standings.map((s) => [String(s.rank), s.name, String(s.score), String(s.correct)]),
      );
      expect(results.standings.map((s) => [s.name, s.correct])).toEqual([
        ['Ann', 2],
        ['Cy', 1],
        ['Bob', 0],
      ]);

      // Each question: the right choice, the rate, the mean time, and every player's answer.
      for (const q of results.questions) {
        const region = page.getByRole('region', { name: `Question ${q.index + 1} ${q.text}` });
        const deckQ = DECK.questions.find((x) => x.text === q.text)!;
        expect(q.correct).toBe(deckQ.correct);
        const figure = (name: string) => region.locator(`[data-figure="${name}"]`).innerText();
        expect([await figure('correct'), await figure('right-rate'), await figure('mean-ms')]).toEqual([
          shownChoice(q, q.correct),
          `${Math.round(q.rightRate * 100)}%`,
          shownMs(meanMs(q)),
        ]);
        expect(await rowsOf(page, region.getByRole('table', { name: `Answers to question ${q.index + 1}` }))).toEqual(
          q.answers.map((a) => [
            a.name,
            a.choice === null ? 'No answer' : shownChoice(q, a.choice),
            a.right ? 'Right' : a.choice === null ? '—' : 'Wrong',
            String(a.points),
            shownMs(a.ms),
          ]),
        );
      }

      // The hardest is the spider (one in three right); the slowest has the highest mean time.
      const hardest = results.questions.find((q) => q.text.includes('spider'))!;
      const slowest = [...results.questions].sort((a, b) => meanMs(b) - meanMs(a) || a.index - b.index)[0];
      const callouts = page.getByRole('region', { name: 'Hardest and slowest' });
      expect(await callouts.locator('[data-callout="hardest"] dd').innerText()).toBe(
        `Question ${hardest.index + 1}: ${hardest.text} (33% answered right)`,
      );
      expect(await callouts.locator('[data-callout="slowest"] dd').innerText()).toBe(
        `Question ${slowest.index + 1}: ${slowest.text} (${shownMs(meanMs(slowest))} on average)`,
      );
      await page.screenshot({ path: join(SCREENSHOTS, 'results-page.png'), fullPage: true });

      // The CSV, downloaded through the page's link: the header, and a row per player per question.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.split(/\r?\n/).filter((line) => line !== '');
      expect(lines[0]).toBe(CSV_HEADER);
      expect(lines).toHaveLength(1 + names.length * DECK.questions.length);
      expect(download.suggestedFilename()).toBe(`results-${resultsId}.csv`);
      // Every player answered: each row's question, player and points are an answer of the JSON (no cell here is quoted).
      const rows = lines.slice(1).map((line) => line.split(','));
      const byRow = rows.map(([, question, , player, , , points]) => `${question} ${player} ${points}`).sort();
      expect(byRow).toEqual(results.questions.flatMap((q) => q.answers.map((a) => `${q.index + 1} ${a.name} ${a.points}`)).sort());
      expect(await violationsOf(page)).toEqual([]);
    } finally {
      for (const p of players) p.close();
    }
  }, 120_000);

  it('says results that are not there are past the window the server names', async () => {
    const page = await watchedPage();
    const gone = await api.request('GET', '/api/results/no-such-results');
    expect([gone.status, gone.body.code]).toEqual([404, 'results_not_found']);
    await page.goto(`${server.url}/results/no-such-results`);
    const alert = page.getByRole('alert');
    await alert.getByRole('heading', { name: 'Results not available' }).waitFor();
    expect(await alert.innerText()).toContain('These results are not available');
    expect(await alert.innerText()).toContain('results are kept 30 days');
    expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);
    expect(await violationsOf(page)).toEqual([]);
  });
});
