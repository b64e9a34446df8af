import { join } from 'node:path';
import { Page } from 'playwright-core';
import { RunningServer } from '../src/server';
import { RefusalRecorder } from '../../../libs/server/src/refusals/refusal-recorder';
import { TEST_ADMIN_TOKEN } from '../../../test/support/test-server';
import { screenshotsDir, TestBrowser, violationsOf, withPagesServer } from './browser';
import { closeAll, queryDb, seatRoom, SeatedRoom } from './support';

// The console remembers (issue 24, item 4), in headless Chromium against a real server: the
// Finished page (search by code and days, paging), a finished game's page with its results, and a
// room's Refused commands. `UPDATE_SCREENSHOTS=1 npx jest console-history` writes
// docs/screenshots/console-finished.png.

/** A one-question trivia game played to its end; the room stays open, finished. */
async function played(server: RunningServer, host: string, names: string[]): Promise<SeatedRoom> {
  const room = await seatRoom(server, names, { hostName: host, questionCount: 1, revealSeconds: 0, secondsPerQuestion: 60 });
  await room.host.send('room.start');
  const open = await room.host.nextEvent('question.open');
  await Promise.all(room.players.map((p, i) => p.send('room.answer', { question: 0, choice: i % open.data.choices.length })));
  await room.host.nextEvent('game.finished');
  return room;
}

/** The game ids of the Finished page's rows, top to bottom. */
async function listedIds(page: Page): Promise<string[]> {
  return page.locator('.finished-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-game-id') ?? ''));
}

/** The codes of the Finished page's rows, top to bottom. */
async function listedCodes(page: Page): Promise<string[]> {
  return page.locator('.finished-table tbody tr .room-code').allInnerTexts();
}

describe('the console remembers', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  const rooms: SeatedRoom[] = [];

  withPagesServer(async (s, b) => {
    server = s;
    browser = b;
    for (const [host, names] of [
      ['Maya', ['Ann', 'Bob', 'Cy']],
      ['Theo', ['Dee', 'Eli']],
      ['Ines', ['Fay', 'Gus', 'Hal', 'Ivy']],
      ['Omar', ['Jo']],
    ] as const) {
      rooms.push(await played(server, host, [...names]));
    }
    // Refused commands in the first room: the rules', the gate's and a frame that is none.
    const [ann] = rooms[0].players;
    await ann.send('room.answer', { question: 0, choice: 0 });
    await ann.send('room.fly');
    await rooms[0].host.send('room.kick', { playerId: 'nobody' });
    await server.app.get(RefusalRecorder).flush();
  });

  afterAll(() => rooms.forEach(closeAll));

  it('lists finished games newest first, searches them by code and by days, pages through them, and opens one with its results', async () => {
    const page = await browser.newWatchedPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/admin/?token=${encodeURIComponent(TEST_ADMIN_TOKEN)}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('link', { name: 'Finished', exact: true }).click();
    await page.locator('.finished-table tbody tr').nth(3).waitFor();
    expect(await listedCodes(page)).toEqual([...rooms].reverse().map((r) => r.code));
    const first = page.locator(`.finished-table tbody tr`).filter({ hasText: rooms[0].code });
    expect(await first.locator('td').nth(3).innerText()).toBe('Maya');
    expect(await first.locator('td').nth(4).innerText()).toBe('3');
    await page.screenshot({ path: join(screenshotsDir('console-history'), 'console-finished.png') });

    // By code, typed in lower case.
    const search = page.getByRole('search', { name: 'Search finished games' });
    await search.getByPlaceholder('K7QMPD').fill(rooms[2].code.toLowerCase());
    await search.getByRole('button', { name: 'Search' }).click();
    await until(async () => (await listedCodes(page)).join() === rooms[2].code);
    // By days: from tomorrow, nothing; today, all four.
    await search.getByRole('button', { name: 'Clear' }).click();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await search.getByLabel('From').fill(day(1));
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No finished game matches this search.').waitFor();
    await search.getByLabel('From').fill(day(0));
    await search.getByLabel('To').fill(day(0));
    await search.getByRole('button', { name: 'Search' }).click();
    await page.locator('.finished-table tbody tr').nth(3).waitFor();
    expect(await listedCodes(page)).toHaveLength(4);

    // Twenty more finished games (earlier rematches of the last room): two pages of twenty.
    await queryDb(
      server,
      `INSERT INTO finished_games (room_id, game, game_no, finished_at, summary)
       SELECT room_id, game, game_no + n, finished_at - n * interval '1 minute', summary FROM finished_games, generate_series(1, 20) AS n WHERE room_id = $1`,
      [rooms[3].roomId],
    );
    await search.getByRole('button', { name: 'Clear' }).click();
    await page.locator('.finished-table tbody tr').nth(19).waitFor();
    const pager = page.getByRole('navigation', { name: 'Finished games pages' });
    const firstPage = await listedCodes(page);
    const firstIds = await listedIds(page);
    expect(firstPage).toHaveLength(20);
    await pager.getByRole('button', { name: 'Older →' }).click();
    await pager.getByText('page 2').waitFor();
    await until(async () => (await page.locator('.finished-table tbody tr').count()) === 4);
    expect(await pager.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    // 24 games in all, each on one page only: the first three rooms' and the last room's 21.
    const secondPage = await listedCodes(page);
    expect(new Set([...firstIds, ...(await listedIds(page))]).size).toBe(24);
    expect([...firstPage, ...secondPage].sort()).toEqual(
      [...rooms.slice(0, 3).map((r) => r.code), ...Array(21).fill(rooms[3].code)].sort(),
    );
    await pager.getByRole('button', { name: '← Newer' }).click();
    await pager.getByText('page 1').waitFor();
    await page.locator('.finished-table tbody tr').nth(19).waitFor();

    // A game's page: its line and its results, as the results page shows them.
    await page.locator('.finished-table tbody tr').filter({ hasText: rooms[0].code }).click();
    await page.getByRole('heading', { level: 1, name: `Room ${rooms[0].code}, game 1` }).waitFor();
    expect(await page.getByRole('group', { name: 'Host' }).innerText()).toContain('Maya');
    const standings = page.getByRole('region', { name: 'Standings' });
    expect((await standings.locator('tbody th').allInnerTexts()).sort()).toEqual(['Ann', 'Bob', 'Cy']);
    expect(await page.locator('[data-question-index]').count()).toBe(1);
    const resultsLink = page.getByRole('link', { name: 'results page' });
    expect(await resultsLink.getAttribute('href')).toMatch(/^\/results\/[0-9a-f-]{36}$/);
    expect(await violationsOf(page)).toEqual([]);
  });

  it('shows a room’s refused commands on its page: who, which command, the error', async () => {
    const page = await browser.newWatchedPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/admin/?token=${encodeURIComponent(TEST_ADMIN_TOKEN)}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(`${server.url}/admin/rooms/${rooms[0].code}`);
    const panel = page.getByRole('region', { name: 'Refused commands' });
    await panel.locator('tbody tr').nth(2).waitFor();
    const rows = await panel
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)));
    // Newest first: the host's kick of nobody, Ann's unknown command, Ann's answer to a question already closed.
    expect(rows.map((r) => r.slice(0, 2))).toEqual([
      ['host', 'room.kick'],
      ['Ann', 'room.fly'],
      ['Ann', 'room.answer'],
    ]);
    expect(rows[1][2]).toBe('unknown_type');
    expect(await panel.getByText('kept 7 days', { exact: false }).count()).toBe(1);
    expect(await violationsOf(page)).toEqual([]);
  });
});

/** Polls from the test's side: the console's CSP refuses the string predicates waitForFunction evaluates. */
async function until(check: () => Promise<boolean>, waitMs = 30_000): Promise<void> {
  const end = Date.now() + waitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`the page did not get there within ${waitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
