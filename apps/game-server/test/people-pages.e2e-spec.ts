import { join } from 'node:path';
import { Page } from 'playwright-core';
import { DelayProxy, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { screenshotsDir, TestBrowser, withPagesServer } from './browser';
import { holdTable, queryDb, untilWaitingOnLock } from './support';

// The pages for people in a real browser (Debian's Chromium driven by playwright-core): a host
// screen and players' phones play whole games by clicking, against a real server and database.
// Every wait is on a page state with a hard timeout (WAIT_MS), never on a sleep.

// `UPDATE_SCREENSHOTS=1 npx jest people-pages` refreshes the README's pictures.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The deck the games are played with, so the test knows each right answer by the question's text. */
const DECK = {
  name: 'Pages test deck',
  questions: [
    { text: 'Which planet is called the red planet?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], correct: 1 },
    { text: 'How many legs has a spider?', choices: ['Six', 'Eight', 'Ten'], correct: 1 },
  ],
};
const rightAnswer = (text: string) => {
  const q = DECK.questions.find((x) => x.text === text);
  if (!q) throw new Error(`not a question of the test deck: ${text}`);
  return { right: q.choices[q.correct], wrong: q.choices[(q.correct + 1) % q.choices.length] };
};

describe('pages for people', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  const SCREENSHOTS = screenshotsDir('people-pages');

  // It holds a table lock on purpose to keep a statement in flight: a held lock must not run into
  // the command budget, which is there for outages (outage.e2e-spec.ts).
  // The host's browser keeps the deck's edit token, as the deck editor does: the host page lists
  // the built-in decks and those whose tokens the browser holds, no other host's.
  let deckToken: { key: string; token: string };
  withPagesServer(
    async (s, b) => {
      server = s;
      browser = b;
      const made = await new HttpApi(server.url).request('POST', '/api/decks', DECK);
      expect(made.status).toBe(201);
      deckToken = { key: `trivia:deck-token:${made.body.id}`, token: made.body.editToken };
    },
    { commandTimeoutMs: 60_000 },
  );

  const newPage = (options: Parameters<TestBrowser['newPage']>[0] = {}) => browser.newPage(options);

  /** Opens a room from the host page's form, as a host would; returns its code. */
  async function hostRoom(page: Page, questions: number, revealSeconds: number): Promise<string> {
    await page.goto(`${server.url}/`);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(deckToken.key)}, ${JSON.stringify(deckToken.token)})`);
    await page.getByRole('button', { name: 'Host a game' }).click();
    await page.getByLabel('Host name').fill('Quizmaster');
    await page.getByLabel('Deck').selectOption({ label: `${DECK.name} (${DECK.questions.length} questions)` });
    await page.getByLabel('Questions', { exact: true }).fill(String(questions));
    await page.getByLabel('Seconds per question').fill('60');
    await page.getByLabel('Seconds of reveal').fill(String(revealSeconds));
    await page.getByRole('button', { name: 'Open room' }).click();
    await page.waitForURL(/\/host\/[A-Z0-9]{6}$/);
    const code = (await page.getByTestId('room-code').innerText()).trim();
    expect(page.url()).toBe(`${server.url}/host/${code}`);
    return code;
  }

  /** From the start page: the room code, then a name, as a player on a phone would. */
  async function joinRoom(page: Page, base: string, code: string, name: string): Promise<void> {
    await page.goto(`${base}/`);
    await page.getByLabel('Room code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Join' }).click();
    await page.waitForURL(`${base}/play/${code}`);
    await page.getByLabel('Your name').fill(name);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByText(`You’re in, ${name}!`).waitFor();
  }

  async function questionText(page: Page): Promise<string> {
    return (await page.locator('.play-question-text').innerText()).trim();
  }

  async function answerCount(host: Page, n: number, of: number): Promise<void> {
    await host
      .getByRole('status')
      .filter({ hasText: `${n} of ${of} answered` })
      .waitFor();
  }

  async function playerIdOf(code: string, name: string): Promise<string> {
    // Seated by the journaled join: its arguments name the seat.
    const rows = await queryDb<{ id: string }>(
      server,
      `SELECT j.body->'args'->>'playerId' AS id FROM room_journal j JOIN rooms r ON r.id = j.room_id
       WHERE r.code = $1 AND j.kind = 'proposal' AND j.body->'args'->>'name' = $2`,
      [code, name],
    );
    return rows[0].id;
  }

  it('serves the pages at /, /host and /play/{code} with cacheable assets, and leaves the API alone', async () => {
    for (const path of ['/', '/host', '/play/ABCDEF', '/host/ABCDEF']) {
      const res = await fetch(`${server.url}${path}`);
      expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 200, 'no-cache']);
      const html = await res.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${server.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    }
    const missing = await fetch(`${server.url}/assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    const api = await fetch(`${server.url}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    // The console keeps its place.
    expect(await (await fetch(`${server.url}/admin/`)).text()).toContain('operator console');
  });

  it('a host screen and three phones play a whole game by clicking, then a rematch', async () => {
    const { page: host } = await newPage({ viewport: { width: 1600, height: 900 } });
    const code = await hostRoom(host, 2, 3);
    await host.getByRole('img', { name: `QR code of the join link ${server.url}/play/${code}` }).waitFor();
    await host.getByRole('link', { name: `${server.url.replace('http://', '')}/play/${code}` }).waitFor();
    expect(await host.getByRole('button', { name: 'Start game' }).isDisabled()).toBe(true);

    const names = ['Ann', 'Bob', 'Cy'];
    const phones: Record<string, Page> = {};
    for (const name of names) {
      phones[name] = (await newPage(PHONE)).page;
      await joinRoom(phones[name], server.url, code, name);
      // The lobby fills in live on the host screen.
      await host.getByRole('region', { name: 'Players' }).getByText(name, { exact: true }).waitFor();
    }
    const { Ann: ann, Bob: bob, Cy: cy } = phones;

    await host.getByRole('button', { name: 'Start game' }).click();
    for (const round of [0, 1]) {
      await ann.getByText(`${round + 1} / 2`).waitFor();
      const text = await questionText(ann);
      const { right, wrong } = rightAnswer(text);
      await host.getByRole('heading', { name: text }).waitFor();
      await host.getByText(`Question ${round + 1} of 2`).waitFor();
      await answerCount(host, 0, 3);
      // Touch targets: every choice button at least 48 px tall and inside a 390 px screen.
      for (const box of await Promise.all((await ann.locator('.choice-button').all()).map((b) => b.boundingBox()))) {
        expect(box!.height).toBeGreaterThanOrEqual(48);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      }

      await ann.getByRole('button', { name: right, exact: true }).click();
      await ann
        .getByRole('status')
        .filter({ hasText: `Answer in: ${right}` })
        .waitFor();
      expect(await ann.getByRole('button', { name: right, exact: true }).getAttribute('aria-pressed')).toBe('true');
      await answerCount(host, 1, 3);
      if (round === 0) {
        await host.screenshot({ path: join(SCREENSHOTS, 'host.png') });
        await ann.screenshot({ path: join(SCREENSHOTS, 'player.png') });
      }
      await bob.getByRole('button', { name: wrong, exact: true }).click();
      await cy.getByRole('button', { name: right, exact: true }).click();

      // The reveal: counts per choice with the right one marked, and each player's points.
      const reveal = host.getByRole('region', { name: 'Reveal' });
      await reveal.waitFor();
      const rightRow = reveal.locator('.count-row.correct');
      expect(await rightRow.locator('.count-label').innerText()).toContain(right);
      expect(await rightRow.locator('.count-number').innerText()).toBe('2');
      expect(await reveal.getByRole('table', { name: 'Scores' }).locator('tbody tr').count()).toBe(3);
      if (round === 0) {
        await ann.getByRole('region', { name: 'Result' }).getByText('Right!').waitFor();
        await bob.getByRole('region', { name: 'Result' }).getByText('Not this time').waitFor();
        expect(await bob.getByRole('region', { name: 'Result' }).innerText()).toContain(`The answer was ${right}`);
        expect(await bob.locator('.points-gained').innerText()).toBe('+0');
        expect(Number((await ann.locator('.points-gained').innerText()).slice(1))).toBeGreaterThanOrEqual(500);
      }
    }

    // Standings on every screen, and the rematch vote on the phones.
    await host.getByRole('region', { name: 'Final standings' }).waitFor();
    for (const phone of [ann, bob, cy]) await phone.getByRole('list', { name: 'Standings' }).waitFor();
    expect(await host.getByRole('list', { name: 'Standings' }).locator('li').count()).toBe(3);
    expect(await bob.locator('.standings li.me .standing-rank').innerText()).toBe('3');
    await ann.getByRole('button', { name: 'Play again' }).click();
    await ann.getByText('You want a rematch. Waiting for the others…').waitFor();
    await bob.getByRole('button', { name: 'Play again' }).click();
    await cy.getByRole('button', { name: 'Leave' }).click();
    await cy.getByText('Thanks for playing!').waitFor();
    await host.getByRole('status').filter({ hasText: 'Rematch accepted: Ann, Bob' }).waitFor();
    await ann.getByText('Rematch on. Waiting for the host to start the game.').waitFor();
    const players = host.getByRole('region', { name: 'Players' });
    await players.getByText('Cy', { exact: true }).waitFor({ state: 'detached' });

    // The rematch, played to the end.
    await host.getByRole('button', { name: 'Start game' }).click();
    for (const round of [0, 1]) {
      await ann.getByText(`${round + 1} / 2`).waitFor();
      const { right } = rightAnswer(await questionText(ann));
      await ann.getByRole('button', { name: right, exact: true }).click();
      await bob.getByRole('button', { name: right, exact: true }).click();
      await host.getByRole('region', { name: round === 1 ? 'Final standings' : 'Reveal' }).waitFor();
    }
    await host.getByRole('region', { name: 'Final standings' }).waitFor();
    const games = await queryDb<{ n: number }>(
      server,
      `SELECT count(*)::int AS n FROM finished_games f JOIN rooms r ON r.id = f.room_id WHERE r.code = $1`,
      [code],
    );
    expect(games[0].n).toBe(2);

    // Closing the room from the host screen ends it on the phones.
    await host.getByRole('button', { name: 'Close room' }).click();
    await ann.getByText('The room is closed. Thanks for playing!').waitFor();
    await host.getByRole('heading', { name: 'Room closed' }).waitFor();
  }, 90_000);

  it('a phone that drops mid-question answers offline, comes back, and is counted once; keyboard-only play; the host kicks', async () => {
    const { page: host } = await newPage({ viewport: { width: 1280, height: 800 } });
    const code = await hostRoom(host, 2, 1);

    // Olu's phone reaches the server through a proxy the test can cut, pages and socket alike.
    const proxy = new DelayProxy({ host: '127.0.0.1', port: server.port }, 0);
    const proxyUrl = `http://127.0.0.1:${await proxy.start()}`;
    try {
      const { context: oluContext, page: olu } = await newPage(PHONE);
      await joinRoom(olu, proxyUrl, code, 'Olu');

      // Kim plays with the keyboard only: Tab to a control, Enter or Space to use it.
      const { page: kim } = await newPage(PHONE);
      await kim.goto(`${server.url}/play/${code}`);
      // The form must be on the page before the first key, or the Tab lands on nothing.
      await kim.getByLabel('Your name').waitFor();
      await kim.keyboard.press('Tab');
      // Whether the page's focus is on what a locator finds (the test runs without DOM types).
      const hasFocus = (locator: ReturnType<Page['locator']>) => locator.evaluate((el: any) => el === el.ownerDocument.activeElement);
      expect(await hasFocus(kim.getByLabel('Your name'))).toBe(true);
      await kim.keyboard.type('Kim');
      await kim.keyboard.press('Enter');
      await kim.getByText('You’re in, Kim!').waitFor();
      await host.getByRole('region', { name: 'Players' }).getByText('Kim', { exact: true }).waitFor();
      const oluId = await playerIdOf(code, 'Olu');
      const answersOf = async (playerId: string, question: number) =>
        (
          await queryDb<{ n: number }>(
            server,
            `SELECT count(*)::int AS n FROM room_journal WHERE kind = 'command' AND actor->>'seat' = $1 AND body->>'type' = 'room.answer' AND (body->'data'->>'question')::int = $2`,
            [playerId, question],
          )
        )[0].n;

      await host.getByRole('button', { name: 'Start game' }).click();
      await olu.locator('.play-question-text').waitFor();
      const first = rightAnswer(await questionText(olu));

      // The network goes: the socket is broken (the proxy cuts it) and the phone is offline.
      proxy.cutAll();
      await oluContext.setOffline(true);
      await olu.getByRole('status').filter({ hasText: 'Connection lost, reconnecting…' }).waitFor();
      await olu.getByRole('button', { name: first.right, exact: true }).click();
      await olu.getByText(`You chose ${first.right}; it will be sent when you are back online.`).waitFor();
      expect(await answersOf(oluId, 0)).toBe(0);
      await answerCount(host, 0, 2);

      // Back online: the page reconnects by itself and sends the answer it kept.
      proxy.restore();
      await oluContext.setOffline(false);
      await olu
        .getByRole('status')
        .filter({ hasText: `Answer in: ${first.right}` })
        .waitFor();
      await olu.getByText('Connection lost, reconnecting…').waitFor({ state: 'detached' });
      await answerCount(host, 1, 2);
      expect(await answersOf(oluId, 0)).toBe(1);

      // Kim answers by keyboard: Tab to a choice, Space.
      await kim.locator('.play-question-text').waitFor();
      const wrongChoice = kim.getByRole('button', { name: first.wrong, exact: true });
      for (let i = 0; i < 8 && !(await hasFocus(wrongChoice)); i++) await kim.keyboard.press('Tab');
      expect(await hasFocus(wrongChoice)).toBe(true);
      await kim.keyboard.press('Space');
      // Kim's was the last answer, so the question closes at once: the reveal says it was taken.
      const kimResult = kim.getByRole('region', { name: 'Result' });
      await kimResult.getByText('Not this time').waitFor();
      expect(await kimResult.innerText()).toContain(`The answer was ${first.right}`);
      await olu.getByRole('region', { name: 'Result' }).getByText('Right!').waitFor();

      // Question 2: Olu's answer reaches the server, which is slow to commit it; the socket dies
      // before the reply. The page resends under the same id and gets the original reply.
      await olu.getByText('2 / 2').waitFor();
      const second = rightAnswer(await questionText(olu));
      const release = await holdTable(server, 'room_journal');
      try {
        await olu.getByRole('button', { name: second.right, exact: true }).click();
        await untilWaitingOnLock(server, 'room_journal');
        proxy.cutAll();
        await oluContext.setOffline(true);
        await olu.getByRole('status').filter({ hasText: 'Connection lost, reconnecting…' }).waitFor();
      } finally {
        await release();
      }
      // Committed while Olu was away; the host's count says so.
      await answerCount(host, 1, 2);
      proxy.restore();
      await oluContext.setOffline(false);
      await olu
        .getByRole('status')
        .filter({ hasText: `Answer in: ${second.right}` })
        .waitFor();
      expect(await answersOf(oluId, 1)).toBe(1);
      await answerCount(host, 1, 2);

      // The host kicks Kim from the screen: Kim's phone says so, and the question closes.
      await host.getByRole('button', { name: 'Kick Kim' }).click();
      await kim.getByText('The host removed you from the room.').waitFor();
      await host.getByRole('region', { name: 'Players' }).getByText('Kim', { exact: true }).waitFor({ state: 'detached' });
      await host.getByRole('region', { name: 'Final standings' }).waitFor();
      // The finished game's record holds each of Olu's answers once (its finish cut the journal).
      const total = await queryDb<{ n: number }>(
        server,
        `SELECT count(*)::int AS n FROM finished_games f, jsonb_array_elements(f.summary->'questions') q, jsonb_array_elements(q->'answers') a
         WHERE f.room_id = (SELECT id FROM rooms WHERE code = $2 ORDER BY created_at DESC LIMIT 1) AND a->>'playerId' = $1`,
        [oluId, code],
      );
      expect(total[0].n).toBe(2);
    } finally {
      await proxy.stop();
    }
  }, 90_000);
});
