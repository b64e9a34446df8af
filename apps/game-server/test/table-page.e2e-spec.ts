import { join } from 'node:path';
import { Page } from 'playwright-core';
import { HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { ensurePagesBuilt, screenshotsDir, TestBrowser } from './browser';
import { startTestServer } from '../../../test/support/test-server';

// The card table's page (`/table/{code}`) in a real browser (Debian's Chromium driven by
// playwright-core): a whole hand played by clicking, against a real server and database.
// Every wait is on a page state with a hard timeout (WAIT_MS), never on a sleep.

// `UPDATE_SCREENSHOTS=1 npx jest table-page` refreshes the README's picture.

// The narrowest phone the page is made for.
const PHONE = { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const TABLE = { name: 'Ann', seed: 20261201, botThinkMs: [5, 20], handPauseMs: 200, actionSeconds: 30 };
/** A card as the page prints it: "A♠", "10♦". */
const CARD_TEXT = /(10|[2-9JQKA])[♠♥♦♣]/;

describe('the card table page', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let SCREENSHOTS: string;

  beforeAll(async () => {
    ensurePagesBuilt();
    SCREENSHOTS = screenshotsDir('table-page');
    server = await startTestServer();
    browser = await TestBrowser.launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    await browser.closeContexts();
  });

  async function newPhone(): Promise<Page> {
    return (await browser.newPage(PHONE)).page;
  }

  /** Card text or card elements in any seat but the human's: there must be none before the result. */
  async function othersCards(page: Page): Promise<string[]> {
    return page.locator('[data-testid="other-seat"]').evaluateAll((seats, pattern) => {
      const re = new RegExp(pattern);
      return seats.filter((s) => s.querySelector('[data-card]') || re.test(s.textContent ?? '')).map((s) => s.textContent ?? '');
    }, CARD_TEXT.source);
  }

  it('serves the page for a table path, and a page without a seat says so', async () => {
    const res = await fetch(`${server.url}/table/K7QMPD`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await newPhone();
    await page.goto(`${server.url}/table/K7QMPD`);
    await page.getByRole('heading', { name: 'No seat at this table' }).waitFor();
  });

  it('opens a table from the start page’s "Practice cards" form and sits the human at it', async () => {
    const page = await newPhone();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Practice cards' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a name to sit down with.' }).waitFor();
    expect(page.url()).toBe(`${server.url}/`);
    await page.getByLabel('Name at the table').fill('Bea');
    await page.getByRole('button', { name: 'Practice cards' }).click();
    await page.waitForURL(/\/table\/[A-Z0-9]{6}$/);
    const code = page.url().split('/').pop()!;
    await page.getByLabel('Your cards').locator('[data-card]').nth(1).waitFor();
    await page.getByTestId('my-seat').getByText('Bea').waitFor();
    const summary = await new HttpApi(server.url).request('GET', `/api/tables/${code}`);
    expect(summary.status).toBe(200);
    expect((summary.body as { seats: { name: string; human: boolean }[] }).seats.filter((s) => s.human).map((s) => s.name)).toEqual([
      'Bea',
    ]);
  });

  it('plays a whole hand by clicking, showing the own cards and no other seat’s before the result', async () => {
    const opened = await new HttpApi(server.url).request('POST', '/api/tables', TABLE);
    expect(opened.status).toBe(201);
    const { code, playerToken } = opened.body as { code: string; playerToken: string };

    const page = await newPhone();
    await page.goto(`${server.url}/table/${code}?token=${encodeURIComponent(playerToken)}`);
    // The token leaves the address bar for session storage.
    await page.waitForURL(`${server.url}/table/${code}`);
    expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(`cards:player:${code}`)})`)).toBe(playerToken);

    const mine = page.getByLabel('Your cards').locator('[data-card]');
    await mine.nth(1).waitFor();
    expect(await mine.count()).toBe(2);
    expect(await page.getByTestId('other-seat').count()).toBe(5);
    for (const name of ['Fold', 'Check', 'Call', 'Bet', 'Raise']) await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByLabel('Amount').waitFor();

    const result = page.getByTestId('hand-result');
    let clicks = 0;
    for (;;) {
      // The human's turn with the buttons enabled (nothing in flight), or the hand's end.
      await page.locator('[data-testid="hand-result"], [aria-label="Your move"][data-ready="true"]').first().waitFor();
      expect(await othersCards(page)).toEqual([]);
      if (await result.count()) break;
      const check = page.getByRole('button', { name: 'Check', exact: true });
      const call = page.getByRole('button', { name: 'Call', exact: true });
      const checkable = await check.isEnabled();
      // Exactly one of the two is legal at any turn.
      expect(await call.isEnabled()).toBe(!checkable);
      // The amount field starts at the minimum raise when a bet or raise is open.
      const amount = page.getByLabel('Amount');
      if (await amount.isEnabled()) expect(Number(await amount.inputValue())).toBeGreaterThan(0);
      const bar = page.getByRole('region', { name: 'Your move' });
      const before = await bar.getAttribute('data-moves');
      await (checkable ? check : call).click();
      clicks++;
      // The action was applied (the betting moved on), or the hand ended with it.
      await page.locator(`[data-testid="hand-result"], [aria-label="Your move"]:not([data-moves="${before}"])`).first().waitFor();
    }
    expect(clicks).toBeGreaterThan(0);
    await result.getByRole('heading', { name: 'Hand 1 finished' }).waitFor();
    expect(await result.innerText()).toMatch(/won \d+/);
    // Seats still show no one else's cards: a showdown's cards are in the result alone.
    expect(await othersCards(page)).toEqual([]);
    await page.getByRole('region', { name: 'Standings' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'table.png'), fullPage: true });

    // With this seed the human calls a shove and loses it all: the page offers a rebuy, and the
    // next hand is dealt once it is taken.
    const mySeat = page.getByTestId('my-seat');
    await mySeat.locator('.seat-stack', { hasText: /^0$/ }).waitFor();
    await page.getByRole('button', { name: 'Rebuy' }).click();
    await page.getByText(/Hand 2 · preflop/).waitFor();
    await mine.nth(1).waitFor();
    await page.getByRole('button', { name: 'Rebuy' }).waitFor({ state: 'detached' });
    expect(await othersCards(page)).toEqual([]);
  }, 60_000);
});
